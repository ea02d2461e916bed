"""A tiny, safe Markdown to HTML converter for the rules pages.

It knows headings, paragraphs, lists, fenced code, tables, emphasis, inline code, links and
images. Everything is HTML-escaped first, so a page can never inject markup; links and images
keep only relative, ``http`` and ``https`` addresses. An HTML comment on a line of its own is
left out, ``<!-- for programs -->`` before a ``##`` heading folds that section (notation,
action ids, parameters) under its heading, and ``<!-- measured -->`` ... ``<!-- /measured -->``
folds how the numbers were measured into a note: a player reading the rules need not wade
through them, and GitHub shows the file as it is.
"""

from __future__ import annotations

import html
import re

_INLINE_CODE = re.compile(r"`([^`]+)`")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)(?:\s+&quot;[^&]*&quot;)?\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)")
_ORDERED = re.compile(r"^\s*\d+[.)]\s+")
_UNORDERED = re.compile(r"^\s*[-*+]\s+")
_COMMENT = re.compile(r"^&lt;!--(.*)--&gt;$")
FOR_PROGRAMS = "for programs"
"""The comment that folds the next ``##`` section."""
MEASURED = "measured"
"""``<!-- measured -->`` ... ``<!-- /measured -->`` folds how a page's numbers were measured
(commands, commits, machines) into a note a player opens only if they want to."""


def _safe_url(url: str, image_base: str) -> str | None:
    raw = html.unescape(url)
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", raw):
        return url if raw.lower().startswith(("http://", "https://")) else None
    if raw.startswith("img/"):
        return image_base + url[len("img/") :]
    return url


def _inline(text: str, image_base: str) -> str:
    """Inline markup on already-escaped text; code spans are kept verbatim."""
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = _INLINE_CODE.sub(keep_code, text)

    def image(match: re.Match[str]) -> str:
        url = _safe_url(match.group(2), image_base)
        return f'<img src="{url}" alt="{match.group(1)}">' if url else match.group(1)

    def link(match: re.Match[str]) -> str:
        url = _safe_url(match.group(2), image_base)
        if url is None:
            return match.group(1)
        if url.endswith(".md") and "/" not in url:
            url = url[: -len(".md")]
        return f'<a href="{url}">{match.group(1)}</a>'

    text = _IMAGE.sub(image, text)
    text = _LINK.sub(link, text)
    text = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", text)
    text = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)


def _table(rows: list[str], image_base: str) -> str:
    def cells(row: str) -> list[str]:
        return [cell.strip() for cell in row.strip().strip("|").split("|")]

    head, body = cells(rows[0]), [cells(row) for row in rows[2:]]
    out = ["<table><thead><tr>"]
    out += [f"<th>{_inline(cell, image_base)}</th>" for cell in head]
    out.append("</tr></thead><tbody>")
    for row in body:
        out.append("<tr>" + "".join(f"<td>{_inline(c, image_base)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


# Over the complexity limit on purpose: one branch per kind of Markdown line the rules pages use.
def to_html(markdown: str, image_base: str = "/rules/img/") -> str:  # noqa: C901
    """Convert ``markdown`` to safe HTML."""
    lines = html.escape(markdown, quote=True).splitlines()
    out: list[str] = []
    paragraph: list[str] = []
    i = 0

    def flush() -> None:
        if paragraph:
            out.append(f"<p>{_inline(' '.join(paragraph), image_base)}</p>")
            paragraph.clear()

    fold_next = folded = False

    def unfold() -> None:
        nonlocal folded
        if folded:
            out.append("</details>")
            folded = False

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        comment = _COMMENT.match(stripped)
        if comment:
            flush()
            said = comment.group(1).strip()
            if said == MEASURED:
                out.append('<details class="measured"><summary>How this was measured</summary>')
            elif said == f"/{MEASURED}":
                out.append("</details>")
            fold_next = said == FOR_PROGRAMS
            i += 1
            continue
        if stripped.startswith("```"):
            flush()
            i += 1
            code: list[str] = []
            while i < len(lines) and not lines[i].strip().startswith("```"):
                code.append(lines[i])
                i += 1
            out.append("<pre><code>" + "\n".join(code) + "</code></pre>")
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading:
            flush()
            level = len(heading.group(1))
            title = _inline(heading.group(2), image_base)
            if level <= 2:
                unfold()
            if level == 2 and fold_next:
                out.append(f'<details class="for-programs"><summary>{title}</summary>')
                folded = True
            else:
                out.append(f"<h{level}>{title}</h{level}>")
            fold_next = False
            i += 1
            continue
        if (
            stripped.startswith("|")
            and i + 1 < len(lines)
            and re.match(r"^\|?[\s:|-]+\|?$", lines[i + 1].strip())
            and "-" in lines[i + 1]
        ):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.append(_table(rows, image_base))
            continue
        if _UNORDERED.match(line) or _ORDERED.match(line):
            flush()
            ordered = bool(_ORDERED.match(line))
            pattern = _ORDERED if ordered else _UNORDERED
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                if pattern.match(lines[i]):
                    items.append(pattern.sub("", lines[i], count=1))
                elif items:
                    items[-1] += " " + lines[i].strip()
                i += 1
            tag = "ol" if ordered else "ul"
            body = "".join(f"<li>{_inline(item, image_base)}</li>" for item in items)
            out.append(f"<{tag}>{body}</{tag}>")
            continue
        if stripped.startswith("&gt;"):
            flush()
            quote = []
            while i < len(lines) and lines[i].strip().startswith("&gt;"):
                quote.append(lines[i].strip()[4:].strip())
                i += 1
            out.append(f"<blockquote>{_inline(' '.join(quote), image_base)}</blockquote>")
            continue
        if not stripped:
            flush()
        else:
            paragraph.append(stripped)
        i += 1
    flush()
    unfold()
    return "\n".join(out)
