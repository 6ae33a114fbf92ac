"""The fidelity set, labelled for judges: rendered documents with rubric questions and true answers.

``make_document(seed)`` renders one document (slide, chart, poster or webpage, by ``seed % 4``)
with real layout: a dark title band with light text, a subtitle, two columns under headings,
a coloured badge with light text, a bordered note box, small serif source text, and, by kind,
bars with a legend or a navigation bar. Some rendered strings are near misses of what the
questions ask ("Revenue" vs "Revenues", one digit changed, case flipped, a dropped letter), some
elements move (title left instead of centred, source in the other corner), and every question's
true answer follows from what was drawn, by the rules written next to each template (never by a
judge). Question phrasing follows the shared BizGenEval subset ("read exactly", "from top to
bottom", "directly below", "placed at the bottom-right of the slide", "appear exactly once").

Question types (``Question.qtype``): exact, list, lines, order, count, case, place, relation,
context (a quote naming the element: an item of the named heading's column, or of the other
column), weight (bold asked of bold headings, titles and items, and of regular ones), colour (white asked
of the title band's and badges' text and of dark body text; a note drawn in red, blue, green,
orange, purple or gray asked in its colour or another), between (the navigation item between
two others, webpages), row (a table row's label and values, slides and charts: true rows, values
of another row, a near-miss value), style (text plus a style only a VLM can see, an underline:
code may only say "no").

The elements added for weight, colour, between, row and style draw their choices from a second
generator (``random.Random(seed + EXTRA_SEED)``), and the context question from a third
(``seed + 2 * EXTRA_SEED``), so every other element and question is the one the seed drew before
they were added.

Splits by seed: dev = seeds 0..n-1, test = seeds 1000..1000+n-1 (``split_seeds``).

Modules: ``vocab`` (what is drawn), ``page`` (questions, documents, the page being drawn,
splits), ``top``, ``columns`` and ``blocks`` (the elements, each drawn and asked about),
``document`` (``make_document``). Read by ``rubricloop-judge-bench`` (``evaluation.judge_bench``).
"""

from documents.errors import near_miss
from documents.fidelity.document import make_document
from documents.fidelity.page import EXTRA_SEED, KINDS, QTYPES, Document, Question, split_seeds

__all__ = ["EXTRA_SEED", "KINDS", "QTYPES", "Document", "Question", "make_document", "near_miss", "split_seeds"]
