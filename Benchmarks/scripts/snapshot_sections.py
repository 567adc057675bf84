# Section sizes of a snapshot file: python3 snapshot_sections.py FILE.snap [STORES]
import struct, sys
names = {1:"meta",2:"coordinates",3:"storePositions",4:"treeXs",5:"treeYs",6:"treeZs",7:"treeIDs",8:"treeBoxes",
 9:"maskPoints",10:"maskNodes",11:"idOrder",12:"diagnostics",13:"rows",14:"rowChecksums",15:"members",16:"keys",
 17:"texts",18:"guesses",19:"scheduleGroups",20:"shapes",21:"shapeKeys",22:"places"}
stores = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
with open(sys.argv[1], "rb") as f:
    head = f.read(64)
    version, count = struct.unpack_from("<II", head, 8)
    total = struct.unpack_from("<Q", head, 16)[0]
    table = f.read(32 * count)
print("version", version, "total", total, "bytes, %.1f B/store" % (total / stores))
for i in range(count):
    kind, _, off, length, _ = struct.unpack_from("<IIQQQ", table, 32 * i)
    print("%-16s %12d  %7.1f B/store" % (names.get(kind, kind), length, length / stores))
