"""The offline judge's reading and reasoning, in three rooms, lowest first:

1. ``rewards.text.ocr``: reading a page with tesseract (``ocr_read``, its passes in
   ``tesseract_lines``, ``fills``, ``rotated`` and ``reread``), the read memo (``ocr_cache``), the
   languages (``ocr_langs``), the engine (``tesseract_engine``) and text matching (``text_match``).
2. ``rewards.text.questions``: the question compiler (``question_compiler``, its steps in
   ``question_quotes``, ``question_form``, ``question_place``, ``question_residue``,
   ``question_style`` and ``question_element`` with its vocabulary in ``element_words`` and its
   phrases cut by ``locator_phrases``) and the former keyword rules (``keyword_rules``). Plain text
   in, specs out: it reads no page.
3. ``rewards.text.page``: the page structure found from OCR lines and pixels (``elements``, its
   finders in ``finders``, ``page_lines`` and ``rectangles``), text style (``text_style``) and
   grounding a compiled question on a page (``grounding``).

Each room imports only the rooms above it in this list (``tests/test_import_rules.py``).

May import: ``rewards.common``, ``rewards.models``. Never imports a judge.
"""
