"""OCR reading: a document image's text lines with tesseract (``ocr_read.ocr_lines``, ``read_page``;
the passes in ``tesseract_lines``, ``fills``, ``rotated`` and the incremental ``reread``), the memo of
reads (``ocr_cache``), the tesseract models a check needs (``ocr_langs``), the engine in this process
or as a command (``tesseract_engine``) and the matching of expected strings to lines (``text_match``).

May import: ``rewards.common``, ``rewards.models``. The lowest text room: never ``rewards.text.questions``
or ``rewards.text.page``.
"""
