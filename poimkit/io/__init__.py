"""Sequence and label files in, tables and result files out.

All validation of user files lives here, in three modules:

`poimkit.io.fasta`
    Reading FASTA files: `read_fasta` reads one file (plain or gzip,
    detected by its magic bytes) into record ids and a ``uint8`` code array;
    `iter_fasta_chunks` reads it chunk by chunk.
`poimkit.io.labeled`
    Reading labelled data sets: `read_labeled` reads a positive and a
    negative FASTA file, or one FASTA file and a table of id and label;
    `read_targets` one FASTA file and a table of id and continuous value.
`poimkit.io.files`
    Writing outputs atomically: `write_fasta`, `write_table` and the
    ``.npz`` result files write through `atomic_path`, so that the target
    either keeps its old content or receives the complete new one, never a
    partial file; `commit_together` makes several outputs appear together.

Every reading problem raises `InputError` naming the file and, where there
is one, the record id and the 1-based position, so that a user can find and
fix it. Labels are ints, ``1`` for the positive and ``0`` for the negative
class.
"""

from .fasta import DroppedRecordsWarning, read_fasta
from .fasta import clean_record as clean_record
from .fasta import count_records as count_records
from .fasta import iter_fasta_chunks as iter_fasta_chunks
from .fasta import iter_records as iter_records
from .fasta import iter_sequences as iter_sequences
from .fasta import open_text as open_text
from .fasta import report_dropped as report_dropped
from .files import PathLike as PathLike
from .files import atomic_path, commit_together, output_folder, write_fasta, write_table
from .files import npz_format as npz_format
from .files import read_npz as read_npz
from .files import write_npz as write_npz
from .labeled import NEGATIVE_WORDS as NEGATIVE_WORDS
from .labeled import POSITIVE_WORDS as POSITIVE_WORDS
from .labeled import read_labeled, read_targets

__all__ = [
    "DroppedRecordsWarning",
    "atomic_path",
    "commit_together",
    "output_folder",
    "read_fasta",
    "read_labeled",
    "read_targets",
    "write_fasta",
    "write_table",
]
