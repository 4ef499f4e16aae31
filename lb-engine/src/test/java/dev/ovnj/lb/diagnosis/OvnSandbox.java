package dev.ovnj.lb.diagnosis;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.Northd;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Sbctl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NB and SB ovsdb-servers with ovn-northd between them and a healthy external load balancer:
 * router lr0 with gateway port lrp-ext (172.16.0.1/24, fd00:172::1/64 on chassis gw1, cr-lrp-ext
 * bound) and lrp-int (10.0.0.1/24, fd00:10::1/64) to switch ls-int, whose ports web1 (10.0.0.2,
 * fd00:10::2) and web2 (10.0.0.3, fd00:10::3) are bound;
 * Load_Balancer web-tcp (owner t, spec web) serves 172.16.0.100:80 on lr0 and ls-int. No
 * ovn-controller runs: the chassis and bindings are faked with ovn-sbctl.
 */
final class OvnSandbox implements AutoCloseable {
    static final String OWNER = "t";
    static final String VIP = "172.16.0.100:80";
    static final Duration WAIT = Duration.ofSeconds(20);

    final OvnCentral central;
    final OvsdbServer nb;
    final OvsdbServer sb;
    final Northd northd;
    final Nbctl nbctl;
    final Sbctl sbctl;

    OvnSandbox() {
        central = OvnCentral.start();
        nb = central.northbound();
        sb = central.southbound();
        northd = central.northd();
        nbctl = central.nbctl();
        sbctl = central.sbctl();
        nbctl.run("lr-add", "lr0",
                "--", "lrp-add", "lr0", "lrp-ext", "00:00:00:00:01:01", "172.16.0.1/24", "fd00:172::1/64",
                "--", "lrp-add", "lr0", "lrp-int", "00:00:00:00:01:02", "10.0.0.1/24", "fd00:10::1/64",
                "--", "lrp-set-gateway-chassis", "lrp-ext", "gw1", "10");
        nbctl.run("ls-add", "ls-int",
                "--", "lsp-add", "ls-int", "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int",
                "--", "lsp-add", "ls-int", "web1", "--", "lsp-set-addresses", "web1", "00:00:00:00:02:01 10.0.0.2 fd00:10::2",
                "--", "lsp-add", "ls-int", "web2", "--", "lsp-set-addresses", "web2", "00:00:00:00:02:02 10.0.0.3 fd00:10::3");
        nbctl.run("ls-add", "ls-ext",
                "--", "lsp-add", "ls-ext", "ext-lr0", "--", "lsp-set-type", "ext-lr0", "router",
                "--", "lsp-set-addresses", "ext-lr0", "router", "--", "lsp-set-options", "ext-lr0", "router-port=lrp-ext");
        createLoadBalancer("web-tcp", "web", VIP, "10.0.0.2:80,10.0.0.3:80");
        nbctl.run("lr-lb-add", "lr0", "web-tcp", "--", "ls-lb-add", "ls-int", "web-tcp");
        sbctl.addChassis("gw1", "127.0.0.1");
        sync();
        sbctl.run("lsp-bind", "cr-lrp-ext", "gw1", "--", "lsp-bind", "web1", "gw1", "--", "lsp-bind", "web2", "gw1");
        sync();
    }

    /** An ovn-trace of the release the tests run (see testkit's OvnRelease). */
    static OvnTrace trace(String southboundRemote) {
        return OvnTrace.of(southboundRemote).withCommand(OvnRelease.current().command("ovn-trace"));
    }

    /** Creates an ovnj-owned Load_Balancer row as the engine would write it (not attached). */
    void createLoadBalancer(String row, String spec, String vip, String backends) {
        nbctl.run("create", "load_balancer", "name=" + row, "protocol=tcp",
                "vips:\"" + vip + "\"=\"" + backends + "\"",
                "external_ids:\"ovnj.owner\"=" + OWNER, "external_ids:\"ovnj.spec\"=" + spec);
    }

    /** Waits until northd has processed everything so far (not while northd is paused). */
    void sync() {
        central.sync();
    }

    /** The Southbound uuids of the logical flows whose actions contain {@code text}. */
    List<String> flowsWithAction(String text) {
        List<String> out = new ArrayList<>();
        String uuid = null;
        for (String line : sbctl.run("--columns=_uuid,actions", "list", "logical_flow").split("\n")) {
            if (line.startsWith("_uuid")) {
                uuid = line.substring(line.indexOf(':') + 1).trim();
            } else if (line.startsWith("actions") && line.contains(text)) {
                out.add(uuid);
            }
        }
        return out;
    }

    /** The Southbound datapath uuid of a router or switch. */
    String datapath(String name) {
        return sbctl.run("--bare", "--columns=_uuid", "find", "datapath_binding", "external_ids:name=" + name).trim();
    }

    /** Connects fresh clients, diagnoses, disconnects. */
    DiagnosisReport diagnose(Diagnosis diagnosis, boolean withSouthbound) {
        try (OvsdbClient n = OvsdbClient.builder().remotes(nb.remote()).monitor(NorthboundFacts.monitorRequest())
                .build().startAndWait(WAIT)) {
            if (!withSouthbound) {
                return diagnosis.run(NorthboundFacts.read(n.cache()), Optional.empty());
            }
            try (OvsdbClient s = OvsdbClient.builder().remotes(sb.remote()).database("OVN_Southbound")
                    .monitor(SouthboundFacts.monitorRequest()).build().startAndWait(WAIT)) {
                return diagnosis.run(n.cache(), s.cache());
            }
        }
    }

    @Override
    public void close() {
        central.close();
    }
}
