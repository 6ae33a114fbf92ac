"""The page structure: the elements of a page a question names, found from OCR lines and pixels
(``elements.find_elements``; the finders in ``finders``, the page and its measures in ``page_lines``,
the cards and bands in ``rectangles``), the style of text (``text_style``) and grounding a compiled
question on a page (``grounding``, with the geometry of its relations and locators in ``relations``).

May import: ``rewards.common``, ``rewards.models``, ``rewards.text.ocr``, ``rewards.text.questions``.
The highest text room.
"""
