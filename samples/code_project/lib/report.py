"""Prints the label map the flow ships as a binary file: an 8-byte magic
number, a little-endian uint16 count, then per label a uint16 id, a length
byte and the UTF-8 name."""
import argparse
import struct

MAGIC = b"\x89LBL\r\n\x1a\n"


def read_labels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a label map")
    (count,) = struct.unpack_from("<H", data, 8)
    labels, i = {}, 10
    for _ in range(count):
        label_id, length = struct.unpack_from("<HB", data, i)
        labels[label_id] = data[i + 3:i + 3 + length].decode("utf-8")
        i += 3 + length
    return labels


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--labels", required=True)
    for label_id, name in sorted(read_labels(parser.parse_args().labels).items()):
        print(label_id, name)
