package dev.ovnj.testkit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import dev.ovnj.testkit.OvsdbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ovn-nbctl and the OVS Python IDL, unchanged, against the in-memory server: the same scripted
 * topology built on it and on ovsdb-server gives the same {@code show} and {@code list} output
 * once UUIDs are replaced by row names, and the same errors for commands that fail.
 */
class NbctlParityIT {
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    /** The timestamp that opens an OVS log line: {@code 2026-11-25T17:24:53Z|}. */
    private static final Pattern LOG_TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z\\|");
    private static final Pattern SET = Pattern.compile("\\[([^\\]]*)\\]");
    private static final List<String> NAMED = List.of("Logical_Switch", "Logical_Switch_Port", "Logical_Router",
            "Logical_Router_Port", "Load_Balancer", "Load_Balancer_Group");
    private static final List<String> LISTED = List.of("NB_Global", "Logical_Switch", "Logical_Switch_Port", "Logical_Router",
            "Logical_Router_Port", "Load_Balancer", "Load_Balancer_Group", "NAT", "ACL", "Logical_Router_Static_Route",
            "Address_Set", "Port_Group", "DHCP_Options");

    private static final String[][] SCRIPT = {
        {"init"},
        {"lr-add", "lr0"},
        {"lr-add", "lr1"},
        {"lrp-add", "lr0", "lr0-ext", "02:00:00:00:00:01", "168.119.17.51/28"},
        {"lrp-add", "lr0", "lr0-int", "02:00:00:00:00:02", "10.0.0.1/24", "fd00::1/64"},
        {"ls-add", "sw0"},
        {"ls-add", "sw1"},
        {"lsp-add", "sw0", "p1"},
        {"lsp-set-addresses", "p1", "00:00:00:00:01:01 10.0.0.11"},
        {"lsp-add", "sw0", "p2"},
        {"lsp-set-addresses", "p2", "00:00:00:00:01:02 10.0.0.12", "dynamic"},
        {"lsp-set-port-security", "p2", "00:00:00:00:01:02 10.0.0.12"},
        {"lsp-add", "sw0", "sw0-lr0"},
        {"lsp-set-type", "sw0-lr0", "router"},
        {"lsp-set-addresses", "sw0-lr0", "router"},
        {"lsp-set-options", "sw0-lr0", "router-port=lr0-int"},
        {"lsp-add", "sw1", "p3", "", "0"},
        {"lb-add", "lb0", "10.0.0.100:80", "10.0.0.11:8080,10.0.0.12:8080", "tcp"},
        {"lb-add", "lb0", "10.0.0.100:443", "10.0.0.11:8443", "tcp"},
        {"lb-add", "lb1", "168.119.17.52:53", "10.0.0.11:53", "udp"},
        {"lb-add", "lb2", "10.0.0.200", "10.0.0.11,10.0.0.12"},
        {"ls-lb-add", "sw0", "lb0"},
        {"ls-lb-add", "sw0", "lb1"},
        {"lr-lb-add", "lr0", "lb0"},
        {"lr-lb-add", "lr0", "lb1"},
        {"lr-lb-add", "lr1", "lb2"},
        {"set", "Load_Balancer", "lb0", "options:reject=true", "external_ids:owner=ovnj"},
        {"lr-nat-add", "lr0", "snat", "168.119.17.51", "10.0.0.0/24"},
        {"lr-nat-add", "lr0", "dnat_and_snat", "168.119.17.53", "10.0.0.11"},
        {"lr-route-add", "lr0", "0.0.0.0/0", "168.119.17.49"},
        {"lr-route-add", "lr0", "192.168.0.0/16", "10.0.0.254"},
        {"acl-add", "sw0", "from-lport", "1000", "ip4.src == 10.0.0.11", "allow-related"},
        {"acl-add", "sw0", "to-lport", "900", "tcp.dst == 22", "drop"},
        {"lb-del", "lb0", "10.0.0.100:443"},
        {"lsp-del", "p2"},
        {"lr-nat-del", "lr0", "dnat_and_snat", "168.119.17.53"},
        {"lr-route-del", "lr0", "192.168.0.0/16"},
        {"ls-lb-del", "sw0", "lb1"},
        {"lb-del", "lb2"},
        {"create", "Address_Set", "name=as1", "addresses=\"10.0.0.11\",\"10.0.0.12\""},
        {"pg-add", "pg1", "p1", "sw0-lr0"},
        {"lr-del", "lr1"},
    };

    private static final String[][] FAILING = {
        {"ls-add", "sw0"},
        {"lsp-add", "sw9", "p9"},
        {"lb-add", "lb9", "10.0.0.1:80", "not-an-ip", "tcp"},
        {"lr-lb-add", "lr0", "nosuchlb"},
        {"remove", "Logical_Router", "lr0", "ports", "00000000-0000-0000-0000-000000000000"},
    };

    @Test
    void nbctlShowAndListMatchOvsdbServer() {
        try (OvsdbServer process = OvsdbServer.start(); InMemoryOvsdbServer memory = InMemoryOvsdbServer.start()) {
            Nbctl real = Nbctl.of(process.remote()).anyMember();
            Nbctl fake = Nbctl.of(memory.remote()).anyMember();
            for (String[] cmd : SCRIPT) {
                assertThat(anyUuid(fake.run(cmd))).as(String.join(" ", cmd)).isEqualTo(anyUuid(real.run(cmd)));
            }
            for (String[] cmd : FAILING) {
                assertThat(failure(fake, cmd)).as(String.join(" ", cmd)).isEqualTo(failure(real, cmd));
            }
            assertThat(normalised(fake, fake.run("show"))).isEqualTo(normalised(real, real.run("show")));
            for (String table : LISTED) {
                assertThat(listing(fake, table)).as(table).isEqualTo(listing(real, table));
            }
            // Leader-only (ovn-nbctl's default) reads the _Server database and accepts a standalone server.
            assertThat(Nbctl.of(memory.remote()).run("ls-list")).contains("(sw0)", "(sw1)");
        }
    }

    @Test
    void pythonIdlReadsAndWrites() throws Exception {
        try (InMemoryOvsdbServer memory = InMemoryOvsdbServer.start()) {
            Nbctl nbctl = Nbctl.of(memory.remote());
            nbctl.run("ls-add", "from-nbctl");
            Path script = Files.createTempFile("ovnj-idl", ".py");
            Files.writeString(script, PYTHON, StandardCharsets.UTF_8);
            Command.Result r = Command.of("/usr/bin/python3", script.toString(), memory.remote())
                    .timeout(Duration.ofSeconds(60)).run();
            Files.delete(script);
            assertThat(r.ok()).as(r.stderr()).isTrue();
            assertThat(r.stdout()).contains("seen: ['from-nbctl']", "commit: success", "after: ['from-idl', 'from-nbctl']");
            assertThat(nbctl.run("--bare", "--columns=name", "find", "Logical_Switch", "name=from-idl")).isEqualTo("from-idl");
        }
    }

    private static final String PYTHON = """
            import sys, ovs.db.idl, ovs.poller, ovs.jsonrpc, ovs.stream
            remote = sys.argv[1]
            err, stream = ovs.stream.Stream.open_block(ovs.stream.Stream.open(remote))
            rpc = ovs.jsonrpc.Connection(stream)
            err, resp = rpc.transact_block(ovs.jsonrpc.Message.create_request("get_schema", ["OVN_Northbound"]))
            helper = ovs.db.idl.SchemaHelper(schema_json=resp.result)
            helper.register_all()
            idl = ovs.db.idl.Idl(remote, helper)
            def spin(pred):
                for _ in range(400):
                    idl.run()
                    if pred():
                        return
                    p = ovs.poller.Poller(); idl.wait(p); p.timer_wait(50); p.block()
                raise SystemExit("timed out")
            names = lambda: sorted(r.name for r in idl.tables["Logical_Switch"].rows.values())
            spin(lambda: idl.has_ever_connected() and names())
            print("seen:", names())
            txn = ovs.db.idl.Transaction(idl)
            row = txn.insert(idl.tables["Logical_Switch"])
            row.name = "from-idl"
            status = txn.commit_block()
            print("commit:", ovs.db.idl.Transaction.status_to_string(status))
            spin(lambda: len(names()) == 2)
            print("after:", names())
            """;

    private static String anyUuid(String s) {
        return UUID.matcher(s).replaceAll("<uuid>");
    }

    private static String failure(Nbctl nbctl, String[] cmd) {
        try {
            return "ok: " + nbctl.run(cmd);
        } catch (NbctlException e) {
            // ovn-nbctl's own log lines carry the time to the second: two runs can straddle one.
            return LOG_TIME.matcher(UUID.matcher(e.getMessage()).replaceAll("<uuid>")).replaceAll("<time>|");
        }
    }

    /** UUIDs of named rows become their names, others {@code <uuid>}; blocks and lines in a stable order. */
    private static List<String> normalised(Nbctl nbctl, String text) {
        Map<String, String> names = names(nbctl);
        Matcher m = UUID.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(names.getOrDefault(m.group(), "<uuid>")));
        }
        m.appendTail(sb);
        // Sets of references print in UUID order, which differs between servers; names sort the same.
        Matcher set = SET.matcher(sb.toString());
        StringBuilder sorted = new StringBuilder();
        while (set.find()) {
            String[] items = set.group(1).split(", ");
            Arrays.sort(items);
            set.appendReplacement(sorted, Matcher.quoteReplacement("[" + String.join(", ", items) + "]"));
        }
        set.appendTail(sorted);
        sb = sorted;
        List<String> blocks = new ArrayList<>();
        StringBuilder block = new StringBuilder();
        for (String line : sb.toString().split("\n")) {
            if (!line.startsWith(" ") && block.length() > 0) {
                blocks.add(sortLines(block.toString()));
                block.setLength(0);
            }
            block.append(line).append('\n');
        }
        blocks.add(sortLines(block.toString()));
        blocks.sort(null);
        return blocks;
    }

    private static String sortLines(String s) {
        String[] lines = s.split("\n");
        Arrays.sort(lines);
        return String.join("\n", lines);
    }

    private static List<String> listing(Nbctl nbctl, String table) {
        List<String> records = new ArrayList<>();
        for (String record : nbctl.run("list", table).split("\n\n")) {
            records.add(String.join("\n", normalised(nbctl, record.strip())));
        }
        records.sort(null);
        return records;
    }

    private static Map<String, String> names(Nbctl nbctl) {
        Map<String, String> names = new HashMap<>();
        for (String table : NAMED) {
            String out = nbctl.run("--bare", "--columns=_uuid,name", "--format=csv", "--no-headings", "list", table);
            for (String line : out.split("\n")) {
                String[] parts = line.split(",", 2);
                if (parts.length == 2) {
                    names.put(parts[0], table + ":" + parts[1]);
                }
            }
        }
        return names;
    }
}
