"""Files the API hands out: CSV (safe to open in a spreadsheet) and JSON lines, streamed."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Sequence
from datetime import datetime

from fastapi.responses import StreamingResponse

# Bytes gathered before a chunk is sent.
CHUNK = 64_000


def csv_cell(value: object) -> str:
    """Neutralise spreadsheet formulas: a reason typed as "=HYPERLINK(…)" stays text. Only
    text is guarded: a number such as -3 is written as it is."""
    if isinstance(value, datetime):
        return value.isoformat()
    if value is None or isinstance(value, bool | int):
        return "" if value is None else str(value)
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


async def rows_of(rows: Iterable[Sequence[object]]) -> AsyncIterator[Sequence[object]]:
    for row in rows:
        yield row


async def csv_chunks(
    columns: Sequence[str], rows: AsyncIterable[Sequence[object]]
) -> AsyncIterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(columns)
    async for row in rows:
        writer.writerow(csv_cell(value) for value in row)
        if buffer.tell() > CHUNK:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def attachment(chunks: AsyncIterator[str], media_type: str, filename: str) -> StreamingResponse:
    return StreamingResponse(
        chunks,
        media_type=f"{media_type}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
