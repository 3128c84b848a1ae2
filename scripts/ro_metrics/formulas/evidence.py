"""Evidence of an automatic fail: the model's own words that the reviewer pointed at.

A reviewer's justification of a fail often quotes the response ("Cita: '…'"). Such a
quote is evidence only if the response really says it, so every quoted span of the
justification is looked up in the public fields of the response (answer_fields):

- exact: the span is found verbatim in one field, after normalisation (below) →
  `quote` is that passage of the field;
- close: no span is verbatim, but one aligns with a passage of a field with a
  similarity of at least CLOSE_THRESHOLD → `quote` is the field's passage, in the
  model's words, not the reviewer's rendering of them;
- none: no span qualifies → no quote (the pages then show the reviewer's
  justification, labelled as the reviewer's words).

Only the response's fields are searched and returned: a quote is never the scoring's
`reference` (it restates the gold's private rule), never gold text, never the
reviewer's own words.

Normalisation, for comparing only: Unicode NFC; every run of whitespace → one space;
typographic quotes folded to straight ones (‘ ’ ‚ ‛ ‹ › → ', “ ” „ ‟ « » → ").
The quote returned is the field's own NFC text, with its whitespace and quote marks.

Similarity (`close`): difflib's SequenceMatcher aligns the span's tokens with the
tokens of a field (tokens: runs of letters and digits, and single punctuation marks,
compared case-insensitively); the passage is the run of aligned blocks with the best
ratio 2·M / (|span| + |passage|), M the tokens aligned between the two. 0.75 means
three quarters of the tokens of both sides align: the spec sample (a reviewer who
left four words out of a 25-token passage) scores 0.913; a quote that keeps only the
passage's topic words scores below 0.6.
"""

import re
import unicodedata
from difflib import SequenceMatcher
from fractions import Fraction
from typing import NamedTuple

from ro_metrics.contracts.records import CriticalFail, PublicAnswer

EXACT, CLOSE, NONE = "exact", "close", "none"
# Lowest similarity of a `close` passage (see the module docstring).
CLOSE_THRESHOLD = 0.75
# A span of fewer words is a term the reviewer names ('desinfectar'), not a quote.
MIN_QUOTE_WORDS = 3
# Bounds on the work per justification: the first spans, and spans of at most this
# many tokens are aligned (longer ones can still match exactly).
MAX_SPANS = 32
MAX_ALIGNED_TOKENS = 400

SINGLE_QUOTES = "‘’‚‛‹›"
DOUBLE_QUOTES = "“”„‟«»"
_FOLD = str.maketrans({**dict.fromkeys(SINGLE_QUOTES, "'"), **dict.fromkeys(DOUBLE_QUOTES, '"')})
_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w+")
ELLIPSIS = "…"
_ELLIPSES = (ELLIPSIS, "...")


class Evidence(NamedTuple):
    """What backs a fail: the field and the model's words, and how they were found."""

    response_field: str  # "" when match is none
    quote: str  # "" when match is none
    match: str  # exact, close or none
    similarity: float  # 1.0 for exact, the alignment ratio for close, 0.0 for none


NO_EVIDENCE = Evidence("", "", NONE, 0.0)


def answer_fields(answer: PublicAnswer) -> list[tuple[str, str]]:
    """(field path, text) of every public text field of a response, in schema order;
    list items are numbered from 0 (key_signals[0], alternatives[1].why_plausible)."""
    fields = [("main_hypothesis", answer.main_hypothesis)]
    fields += [(f"key_signals[{i}]", signal) for i, signal in enumerate(answer.key_signals)]
    for i, (hypothesis, plausible, discardable) in enumerate(answer.alternatives):
        fields += [
            (f"alternatives[{i}].hypothesis", hypothesis),
            (f"alternatives[{i}].why_plausible", plausible),
            (f"alternatives[{i}].why_discardable", discardable),
        ]
    fields += [
        ("requested_data", answer.requested_data),
        ("recommended_action", answer.recommended_action),
        ("decision_change_condition", answer.decision_change_condition),
    ]
    return fields


class Folded:
    """A text's NFC form and its normalised form, with the way back between the two."""

    def __init__(self, text: str):
        self.original = unicodedata.normalize("NFC", text)
        chars, positions = [], []
        for position, char in enumerate(self.original):
            if char.isspace():
                if chars and chars[-1] != " ":
                    chars.append(" ")
                    positions.append(position)
                continue
            chars.append(char)
            positions.append(position)
        if chars and chars[-1] == " ":
            chars.pop()
            positions.pop()
        self.text = "".join(chars).translate(_FOLD)
        self.positions = positions
        self._tokens = None

    def passage(self, start: int, end: int) -> str:
        """The original text behind normalised characters [start, end)."""
        return self.original[self.positions[start] : self.positions[end - 1] + 1]

    @property
    def tokens(self) -> list[re.Match]:
        if self._tokens is None:
            self._tokens = list(_TOKEN.finditer(self.text))
        return self._tokens


def normalise(text: str) -> str:
    """NFC, whitespace runs collapsed to one space (ends stripped), quotes folded."""
    return Folded(text).text


def quoted_spans(justification: str) -> list[str]:
    """The quoted spans of a justification, normalised, in the order they start.

    Double quotes (after folding) pair in sequence. A single quote opens a span only
    at the start or after a character that is not a letter or digit, and before a
    non-space; it closes one only after a non-space and before the end or a character
    that is not a letter or digit: an apostrophe inside a word (the model's) is
    neither. Ellipses at a span's ends are dropped ('…through the RO…').
    """
    text = normalise(justification)
    found = []
    opened = None
    for position, char in enumerate(text):
        if char != '"':
            continue
        if opened is None:
            opened = position
        else:
            found.append((opened, text[opened + 1 : position]))
            opened = None
    opened = None
    for position, char in enumerate(text):
        if char != "'":
            continue
        before = text[position - 1] if position else " "
        after = text[position + 1] if position + 1 < len(text) else " "
        if opened is None:
            if not before.isalnum() and after != " ":
                opened = position
        elif before != " " and not after.isalnum():
            found.append((opened, text[opened + 1 : position]))
            opened = None
    spans = []
    for _, span in sorted(found, key=lambda item: item[0]):
        span = _strip_ellipses(span)
        if len(_WORD.findall(span)) >= MIN_QUOTE_WORDS:
            spans.append(span)
    return spans[:MAX_SPANS]


def _strip_ellipses(span: str) -> str:
    span = span.strip()
    changed = True
    while changed:
        changed = False
        for mark in _ELLIPSES:
            if span.startswith(mark):
                span, changed = span[len(mark) :].lstrip(), True
            if span.endswith(mark):
                span, changed = span[: -len(mark)].rstrip(), True
    return span


def _find_exact(span: str, folded: Folded) -> int | None:
    """Start of the first occurrence of span in the field that begins and ends at word
    boundaries ("RO system" is not found inside "PRO systems")."""
    text = folded.text
    start = text.find(span)
    while start != -1:
        end = start + len(span)
        starts_clean = not (span[0].isalnum() and start > 0 and text[start - 1].isalnum())
        ends_clean = not (span[-1].isalnum() and end < len(text) and text[end].isalnum())
        if starts_clean and ends_clean:
            return start
        start = text.find(span, start + 1)
    return None


def similarity(span_tokens: list[str], passage_tokens: list[str]) -> float:
    """ratio = 2·M / (|span| + |passage|): difflib's SequenceMatcher.ratio on tokens."""
    return SequenceMatcher(None, span_tokens, passage_tokens, autojunk=False).ratio()


def best_passage(span_tokens: list[str], matcher: SequenceMatcher) -> tuple[float, int, int]:
    """(similarity, first token, end token) of the field passage that best matches the
    span: the run of consecutive aligned blocks with the highest 2·M / (|span| + width),
    ties to the narrower, then the earlier passage. matcher holds the field's tokens as
    its second sequence; (0.0, 0, 0) if nothing aligns."""
    matcher.set_seq1(span_tokens)
    blocks = [block for block in matcher.get_matching_blocks() if block.size]
    best = None
    for first in range(len(blocks)):
        matched = 0
        for last in range(first, len(blocks)):
            matched += blocks[last].size
            start, end = blocks[first].b, blocks[last].b + blocks[last].size
            key = (Fraction(2 * matched, len(span_tokens) + end - start), start - end, -start)
            if best is None or key > best[0]:
                best = (key, start, end)
    if best is None:
        return 0.0, 0, 0
    _, start, end = best
    return similarity(span_tokens, matcher.b[start:end]), start, end


def _span_tokens(span: str) -> list[str]:
    """The span's tokens for the alignment; an ellipsis inside it marks left-out words."""
    tokens = _TOKEN.findall(span.replace("...", ELLIPSIS))
    return [token.casefold() for token in tokens if token != ELLIPSIS]


def evidence(justification: str, answer: PublicAnswer) -> Evidence:
    """The evidence of a fail from its reviewer's justification (see the module doc).

    Several spans: an exact one wins over a close one; among exact ones the longest
    (then the first); among close ones the most similar (then the longer span, the
    first span, the first field in schema order, the earlier passage). A span found in
    several fields counts in the first of them, in schema order.
    """
    spans = quoted_spans(justification)
    if not spans:
        return NO_EVIDENCE
    fields = [(name, Folded(text)) for name, text in answer_fields(answer)]
    exact = None
    for span in spans:
        if exact is not None and len(span) <= len(exact[0]):
            continue
        for name, folded in fields:
            start = _find_exact(span, folded)
            if start is not None:
                exact = (span, name, folded.passage(start, start + len(span)))
                break
    if exact is not None:
        return Evidence(exact[1], exact[2], EXACT, 1.0)

    candidates = [(index, _span_tokens(span)) for index, span in enumerate(spans)]
    candidates = [(i, tokens) for i, tokens in candidates if len(tokens) <= MAX_ALIGNED_TOKENS]
    best = None
    for order, (name, folded) in enumerate(fields):
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2([token[0].casefold() for token in folded.tokens])
        for index, tokens in candidates:
            ratio, start, end = best_passage(tokens, matcher)
            if end == start:
                continue
            key = (ratio, len(tokens), -index, -order, -start)
            if best is None or key > best[0]:
                best = (key, name, folded, start, end)
    if best is None or best[0][0] < CLOSE_THRESHOLD:
        return NO_EVIDENCE
    (ratio, *_), name, folded, start, end = best
    tokens = folded.tokens
    return Evidence(
        name, folded.passage(tokens[start].start(), tokens[end - 1].end()), CLOSE, ratio
    )


def critical_fail_rows(fails: list[CriticalFail]) -> list[list]:
    """The rows of critical_fails.csv (tables.CRITICAL_FAIL_COLUMNS), one per critical
    fail, sorted by (subject_id, subject_version, case_id, run_id, reviewer_id), then
    by the fail's position in the scoring."""
    rows = []
    for fail in sorted(fails, key=lambda f: (*f[:5], f.position)):
        found = evidence(fail.justification, fail.answer)
        rows.append(
            [
                *fail[:5],
                fail.fail_type,
                found.response_field,
                found.quote,
                found.match,
                fail.justification,
            ]
        )
    return rows
