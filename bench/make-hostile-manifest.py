# Three manifests made to cost the most, each just under tabicon's 128 MiB cap, written over the
# manifest of a one-icon run (bench/README.md, "Rows streamed, entries left in the file"):
#   python3 bench/make-hostile-manifest.py renditions|icons|wide OUT   (then: tabicon normalize ICONS -o OUT)
# wide: icons of 32 renditions each, the most an entry may list (NormalizeOptions.mostScales)
import json, sys, os
cap = 128 << 20
kind, out = sys.argv[1], sys.argv[2]
head = json.load(open(out + "/manifest.json"))
def rendition(i):
    return {"scale": 1, "path": "icons/r%d.png" % i, "pixelWidth": 1, "pixelHeight": 1, "bytes": 1, "hash": "x"}
def icon(i, renditions):
    return {"input": "icons/i%d.png" % i, "name": "i%d" % i, "format": "png", "pixelWidth": 1, "pixelHeight": 1,
            "orientation": 1, "hasAlpha": True, "animated": False, "contentHash": "x", "decodeScale": 1,
            "pointWidth": 1, "pointHeight": 1, "lints": [], "renditions": renditions}
def size(doc): return len(json.dumps(doc, separators=(",", ":")))
doc = dict(head)
base = size(dict(doc, icons=[], errors=[]))
if kind == "renditions":
    one = size(rendition(1000000)) + 1
    n = (cap - base - 600) // one
    doc["icons"] = [icon(0, [rendition(i) for i in range(n)])]
elif kind == "icons":
    one = size(icon(1000000, [rendition(1000000)])) + 1
    n = (cap - base - 600) // one
    doc["icons"] = [icon(i, [rendition(i)]) for i in range(n)]
else:
    one = size(icon(100000, [rendition(10000000 + j) for j in range(32)])) + 1
    n = (cap - base - 600) // one
    doc["icons"] = [icon(i, [rendition(i * 32 + j) for j in range(32)]) for i in range(n)]
doc["errors"] = []
text = json.dumps(doc, separators=(",", ":"))
assert len(text) <= cap, len(text)
open(out + "/manifest.json", "w").write(text)
print(kind, n, len(text))
