#!/usr/bin/python3
"""Peer driver: the OVS Python IDL (Debian python3-openvswitch).

Run with /usr/bin/python3 (the system interpreter that has the `ovs` package).
Prints one JSON object with its timings on stdout; the Java harness parses it.

  python_idl.py bulk REMOTE SCHEMA N ROUTER SWITCH
      One transaction per load balancer: insert (1 VIP, 3 backends) and
      attach it to ROUTER and SWITCH (two mutates), committed with
      Transaction.commit_block(), one at a time.
  python_idl.py sync REMOTE SCHEMA
      Time until the IDL holds the database (has_ever_connected) and the RSS
      growth of this process for it.
"""
import json
import resource
import sys
import time

import ovs.db.idl
import ovs.poller

TABLES = ["Load_Balancer", "Load_Balancer_Group", "Logical_Router", "Logical_Switch",
          "Logical_Router_Port", "NAT"]


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_s():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def connect(remote, schema, tables):
    helper = ovs.db.idl.SchemaHelper(location=schema)
    for t in tables:
        helper.register_table(t)
    idl = ovs.db.idl.Idl(remote, helper)
    while not idl.has_ever_connected():
        idl.run()
        if idl.has_ever_connected():
            break
        poller = ovs.poller.Poller()
        idl.wait(poller)
        poller.block()
    return idl


def by_name(idl, table, name):
    for row in idl.tables[table].rows.values():
        if row.name == name:
            return row
    raise SystemExit("no %s named %s" % (table, name))


def bulk(remote, schema, n, router_name, switch_name):
    idl = connect(remote, schema, ["Load_Balancer", "Logical_Router", "Logical_Switch"])
    router = by_name(idl, "Logical_Router", router_name)
    switch = by_name(idl, "Logical_Switch", switch_name)
    cpu0 = cpu_s()
    t0 = time.monotonic()
    failures = 0
    for i in range(n):
        txn = ovs.db.idl.Transaction(idl)
        lb = txn.insert(idl.tables["Load_Balancer"])
        lb.name = "py-lb-%d" % i
        a, b = divmod(i, 250)
        lb.vips = {"172.16.%d.%d:80" % (a, b + 1):
                   "10.%d.%d.1:8080,10.%d.%d.2:8080,10.%d.%d.3:8080" % (a, b, a, b, a, b)}
        lb.protocol = "tcp"
        router.addvalue("load_balancer", lb.uuid)
        switch.addvalue("load_balancer", lb.uuid)
        status = txn.commit_block()
        if status != ovs.db.idl.Transaction.SUCCESS:
            failures += 1
            sys.stderr.write("txn %d: %s %s\n" % (i, status, txn.get_error()))
    wall = time.monotonic() - t0
    cpu = cpu_s() - cpu0
    idl.close()
    print(json.dumps({"wall_s": wall, "cpu_s": cpu, "failures": failures, "rows": n}))


def sync(remote, schema):
    rss0 = rss_kb()
    cpu0 = cpu_s()
    t0 = time.monotonic()
    idl = connect(remote, schema, TABLES)
    wall = time.monotonic() - t0
    cpu = cpu_s() - cpu0
    rows = len(idl.tables["Load_Balancer"].rows)
    rss1 = rss_kb()
    print(json.dumps({"sync_s": wall, "cpu_s": cpu, "rss_growth_mb": (rss1 - rss0) / 1024.0,
                      "rows": rows}))
    idl.close()


def main(argv):
    if len(argv) >= 7 and argv[1] == "bulk":
        bulk(argv[2], argv[3], int(argv[4]), argv[5], argv[6])
    elif len(argv) >= 4 and argv[1] == "sync":
        sync(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
