"""The bundled example: real BizGenEval text items with rendered start images (see README.md)."""
