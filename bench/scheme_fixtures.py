#!/usr/bin/env python3
"""Makes the request-interception benchmark tree (idempotent): python3 bench/scheme_fixtures.py DIR

DIR/scheme.html   a copy of pages/bench/scheme.html (the transfer page)
DIR/big.bin       100 MiB of random bytes
DIR/many/index.html + DIR/many/r/0..999.css   a page with 1 000 small stylesheets
"""
import os
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIG = 100 << 20
COUNT = 1000


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    root = sys.argv[1]
    os.makedirs(os.path.join(root, "many", "r"), exist_ok=True)
    shutil.copyfile(os.path.join(REPO, "pages", "bench", "scheme.html"), os.path.join(root, "scheme.html"))
    big = os.path.join(root, "big.bin")
    if not os.path.exists(big) or os.path.getsize(big) != BIG:
        with open(big + ".part", "wb") as file:
            for _ in range(BIG >> 20):
                file.write(os.urandom(1 << 20))
        os.replace(big + ".part", big)
    links = []
    for index in range(COUNT):
        with open(os.path.join(root, "many", "r", f"{index}.css"), "w") as file:
            file.write(f".c{index} {{ color: rgb({index % 256}, 0, 0); }}\n")
        links.append(f'<link rel="stylesheet" href="r/{index}.css">')
    with open(os.path.join(root, "many", "index.html"), "w") as file:
        file.write("<!doctype html>\n<title>1000 resources</title>\n" + "\n".join(links) + "\n<p class=c1>done</p>\n")


if __name__ == "__main__":
    main()
