"""The other reference of the zip target: a zip entry inflated by zlib alone, as healthport
inflates it (raw deflate, zlib's inflate and CRC-32), with nothing done to the bytes.

    inflate_entry.py ZIP MEMBER     prints the entry's inflated size

Python's zipfile calls zlib for both; its own cost is a read call per MiB. unzip(1) is not
used: Debian's is built with Info-ZIP's own inflate, about three times slower than zlib's,
which would flatter a ratio against it.
"""
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as archive, archive.open(sys.argv[2]) as entry:
    total = 0
    while True:
        block = entry.read(1 << 20)
        if not block:
            break
        total += len(block)
print(total)
