"""The question compiler: a yes/no question about a rendered page becomes the part code can check
(``question_compiler.TextSpec``, ``ElementSpec``) and the parts only a VLM can decide. Its steps:
``question_quotes``, ``question_form``, ``question_place``, ``question_residue``, ``question_style``,
``question_element`` (vocabulary in ``element_words``, phrases cut by ``locator_phrases``); ``keyword_rules``
are the importer's rules from before the compiler.

May import: ``rewards.common``, ``rewards.models``, ``rewards.text.ocr``. Never ``rewards.text.page``.
"""
