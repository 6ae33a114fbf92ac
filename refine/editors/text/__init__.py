"""The offline text editor (``TextEditor``, ``conf/editor/text.yaml``), split by job.

``editor`` runs an edit in steps; each job is a module (the behaviour is described in
``editor``'s docstring):

- ``work``: collect the work (which failed checks become which strings to write);
- ``bullets``, ``page``, ``look_harder``: read the page (bullet marks are not text; body type; a
  second, harder OCR read of fills);
- ``order``: which string goes first, a check's groups kept together;
- ``near_match``: which OCR text is the string (a near match to rewrite, or text a judge accepts);
- ``rewrite``: rewrite a near match where it stands, in its own type (checked against its
  siblings' in ``sibling_face``, its strokes as heavy as the old text's in ``stroke_weight``, a
  symbol OCR left unread before its words taken with them in ``unread_mark``);
- ``rewrite_rotated``: rotated text (a y-axis title) rewritten rotated, at its angle;
- ``place_at_bar``: a bar's value label, rewritten or written at its bar's end;
- ``place_in_wedge``: a pie or donut slice's value, rewritten or written inside its wedge;
- ``place_nav_item``: a navigation menu's missing link, one gap from its neighbour, or inserted
  between two links with the links on the menu's free side moved back (``insert_nav_item``); a
  pie's column legend re-laid with its missing entry (``insert_legend_entry``, from
  ``place_legend_entry``);
- ``place``: which slot a missing string goes into (``place_in_badge``, ``place_in_row_column``
  for a value on its label's row, ``place_in_sibling_card`` for a string a like card holds,
  ``place_by_neighbour``, ``place_legend_entry`` for a legend entry with its swatch,
  ``place_list_item``, ``insert_list_item`` for a list item the engine closed up behind (inserted,
  the items after it moved down), ``place_in_element``, ``place_at_foot`` for a source line or footer,
  ``place_in_free_space`` under its anchor; anywhere free only with ``free_space``; free space and
  places in ``placement``; the card a check names by its label in ``cards``);
- ``layout``: wrapping and the rows of a block on its pitch;
- ``erase``, ``type_match``, ``colours``: erase text, match its type, measure its colours;
- ``audit``: what the editor checks about its own edits, and the record of each action.

Jobs return typed outcomes (``outcomes``: ``Skip``, ``Written``, ``Rewrite``) and share one
mutable object per edit (``state.EditState``) with the editor's settings (``state.Rules``).

Inside, a module imports only the modules before it in this order: ``bullets``, ``colours``,
``type_match``, ``stroke_weight``, ``erase``, ``placement``, ``look_harder``, ``layout``, ``page``, ``outcomes``,
``state``, ``cards``, ``near_match``, ``sibling_face``, ``unread_mark``, ``rewrite``, ``place_in_badge``,
``place_by_neighbour``, ``place_in_element``, ``place_list_item``, ``insert_list_item``, ``insert_nav_item``,
``insert_legend_entry``, ``place_in_row_column``, ``place_legend_entry``,
``place_in_sibling_card``, ``place_in_free_space``, ``rewrite_rotated``, ``place_at_bar``, ``place_in_wedge``,
``place_at_foot``, ``work``, ``order``, ``place``, ``audit``, ``editor``; no module imports this
package itself.
"""

from refine.editors.text.colours import two_means_colours
from refine.editors.text.editor import TextEditor

__all__ = ["TextEditor", "two_means_colours"]
