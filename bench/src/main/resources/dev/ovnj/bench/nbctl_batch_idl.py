# The project batch of NbctlBatchScenario through the OVS Python IDL, as ovsdbapp's OVN Northbound
# API does it (ovsdbapp itself is not installed here): one long-lived IDL replica, one transaction
# per batch, name lookups by scanning the replica (ovsdbapp's row_by_value). Prints one line per
# batch: the milliseconds from building the transaction to its commit.
# usage: nbctl_batch_idl.py REMOTE SCHEMA FIRST_PROJECT BATCHES
import sys
import time

import ovs.db.idl
import ovs.poller

remote, schema, first, batches = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
helper = ovs.db.idl.SchemaHelper(schema)
helper.register_all()
idl = ovs.db.idl.Idl(remote, helper)
while not idl.has_ever_connected():
    idl.run()
    poller = ovs.poller.Poller()
    idl.wait(poller)
    poller.block()


def by_name(table, name):
    for row in idl.tables[table].rows.values():
        if row.name == name:
            return row
    return None


def batch(k):
    p = "py%d" % k
    txn = ovs.db.idl.Transaction(idl)
    if by_name("Logical_Router", p + "-r") is not None:
        raise SystemExit("router exists")
    t = idl.tables

    def insert(table, **cols):
        row = txn.insert(t[table])
        for c, v in cols.items():
            setattr(row, c, v)
        return row

    r = insert("Logical_Router", name=p + "-r")
    web = insert("Logical_Switch", name=p + "-web")
    db = insert("Logical_Switch", name=p + "-db")
    mac = lambda n: "0a:%02x:%02x:00:00:%02x" % (k // 256 % 256, k % 256, n)
    ext = insert("Logical_Router_Port", name=p + "-r-ext", mac=mac(1), networks=["172.16.%d.1/24" % (k % 250)])
    rweb = insert("Logical_Router_Port", name=p + "-r-web", mac=mac(2), networks=["10.%d.1.1/24" % (k % 250)])
    rdb = insert("Logical_Router_Port", name=p + "-r-db", mac=mac(3), networks=["10.%d.2.1/24" % (k % 250)])
    gc = insert("Gateway_Chassis", name=p + "-r-ext-gw1", chassis_name="gw1", priority=20)
    ext.gateway_chassis = [gc]
    webr = insert("Logical_Switch_Port", name=p + "-web-r", type="router", addresses=["router"],
                  options={"router-port": p + "-r-web"})
    dbr = insert("Logical_Switch_Port", name=p + "-db-r", type="router", addresses=["router"],
                 options={"router-port": p + "-r-db"})
    vm1 = insert("Logical_Switch_Port", name=p + "-vm1", addresses=["%s 10.%d.1.10" % (mac(4), k % 250)])
    vm2 = insert("Logical_Switch_Port", name=p + "-vm2", addresses=["%s 10.%d.2.10" % (mac(5), k % 250)])
    web.ports = [webr, vm1]
    db.ports = [dbr, vm2]
    snat = insert("NAT", type="snat", external_ip="172.16.%d.1" % (k % 250), logical_ip="10.%d.0.0/16" % (k % 250),
                  options={"stateless": "false"})
    fip = insert("NAT", type="dnat_and_snat", external_ip="172.16.%d.50" % (k % 250), logical_ip="10.%d.1.10" % (k % 250),
                 logical_port=[p + "-vm1"], external_mac=[mac(6)], options={"stateless": "false"})
    route = insert("Logical_Router_Static_Route", ip_prefix="0.0.0.0/0", nexthop="172.16.%d.254" % (k % 250))
    r.ports = [ext, rweb, rdb]
    r.nat = [snat, fip]
    r.static_routes = [route]
    acls = [insert("ACL", direction="to-lport", priority=1001, match="outport == @%s_pg && tcp.dst == 80" % p,
                   action="allow-related"),
            insert("ACL", direction="to-lport", priority=1000, match="outport == @%s_pg" % p, action="drop"),
            insert("ACL", direction="from-lport", priority=1000, match="inport == @%s_pg" % p, action="allow-related")]
    insert("Port_Group", name=p + "_pg", ports=[vm1, vm2], acls=acls)
    status = txn.commit_block()
    if status != ovs.db.idl.Transaction.SUCCESS:
        raise SystemExit("transaction failed: %s %s" % (status, txn.get_error()))


for k in range(first, first + batches):
    t0 = time.perf_counter()
    batch(k)
    print("%.3f" % ((time.perf_counter() - t0) * 1000.0), flush=True)
