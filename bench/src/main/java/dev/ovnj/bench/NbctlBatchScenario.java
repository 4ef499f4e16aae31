package dev.ovnj.bench;

import dev.ovnj.nb.command.NbctlCommandLine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Issue 53: a controller's typical batch, one project (a router with an external, a web and a db
 * port, two switches with their router ports and a VM each, a gateway chassis, SNAT, a floating
 * IP, a default route, a port group with three ACLs: 27 ovn-nbctl commands), applied through ovnj
 * in one transaction ({@link NbctlCommandLine} on a connected client), through {@code ovn-nbctl} one process
 * per command, through {@code ovn-nbctl} in daemon mode ({@code --detach}, {@code OVN_NB_DAEMON}),
 * and through the OVS Python IDL in one transaction (as ovsdbapp does; ovsdbapp itself is not
 * installed). Each client gets its own fresh server; the metric is the median wall time per batch.
 */
final class NbctlBatchScenario {
    static final String NAME = "nbctl-batch";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int WARM_UP = 300;

    private NbctlBatchScenario() {
    }

    /** The batch of project {@code k} as ovn-nbctl command lines. */
    static List<List<String>> batch(int k) {
        String p = "p" + k;
        int n = k % 250;
        List<List<String>> c = new ArrayList<>();
        c.add(List.of("lr-add", p + "-r"));
        c.add(List.of("ls-add", p + "-web"));
        c.add(List.of("ls-add", p + "-db"));
        c.add(List.of("lrp-add", p + "-r", p + "-r-ext", mac(k, 1), "172.16." + n + ".1/24"));
        c.add(List.of("lrp-add", p + "-r", p + "-r-web", mac(k, 2), "10." + n + ".1.1/24"));
        c.add(List.of("lrp-add", p + "-r", p + "-r-db", mac(k, 3), "10." + n + ".2.1/24"));
        for (String sw : List.of("web", "db")) {
            String port = p + "-" + sw + "-r";
            c.add(List.of("lsp-add", p + "-" + sw, port));
            c.add(List.of("lsp-set-type", port, "router"));
            c.add(List.of("lsp-set-options", port, "router-port=" + p + "-r-" + sw));
            c.add(List.of("lsp-set-addresses", port, "router"));
        }
        c.add(List.of("lsp-add", p + "-web", p + "-vm1"));
        c.add(List.of("lsp-set-addresses", p + "-vm1", mac(k, 4) + " 10." + n + ".1.10"));
        c.add(List.of("lsp-add", p + "-db", p + "-vm2"));
        c.add(List.of("lsp-set-addresses", p + "-vm2", mac(k, 5) + " 10." + n + ".2.10"));
        c.add(List.of("lrp-set-gateway-chassis", p + "-r-ext", "gw1", "20"));
        c.add(List.of("lr-nat-add", p + "-r", "snat", "172.16." + n + ".1", "10." + n + ".0.0/16"));
        c.add(List.of("lr-nat-add", p + "-r", "dnat_and_snat", "172.16." + n + ".50", "10." + n + ".1.10", p + "-vm1",
                mac(k, 6)));
        c.add(List.of("lr-route-add", p + "-r", "0.0.0.0/0", "172.16." + n + ".254"));
        c.add(List.of("pg-add", p + "_pg", p + "-vm1", p + "-vm2"));
        c.add(List.of("acl-add", p + "_pg", "to-lport", "1001", "outport == @" + p + "_pg && tcp.dst == 80", "allow-related"));
        c.add(List.of("acl-add", p + "_pg", "to-lport", "1000", "outport == @" + p + "_pg", "drop"));
        c.add(List.of("acl-add", p + "_pg", "from-lport", "1000", "inport == @" + p + "_pg", "allow-related"));
        return c;
    }

    private static String mac(int k, int n) {
        return String.format(Locale.ROOT, "0a:%02x:%02x:00:00:%02x", k / 256 % 256, k % 256, n);
    }

    static void run(int batches, Results results) throws Exception {
        results.note(Proc.fmt("nbctl-batch: %d batches of %d commands per client; load average before: %s", batches,
                batch(0).size(), loadAverage()));
        results.add(NAME, "ovnj-one-transaction", "batch_ms", ovnj(batches));
        results.add(NAME, "ovn-nbctl-per-command", "batch_ms", perCommand(batches, null));
        results.add(NAME, "ovn-nbctl-daemon", "batch_ms", daemon(batches));
        results.add(NAME, "python-idl-one-transaction", "batch_ms", pythonIdl(batches));
        results.note("nbctl-batch: load average after: " + loadAverage());
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static double ovnj(int batches) {
        // A controller is a long-running process: the JIT has compiled the command path before the
        // measured batches. The warm-up runs on a server of its own, so the measured database grows
        // as the other clients' do (the Python IDL process is measured from its first batch).
        try (OvsdbServer warm = OvsdbServer.start();
                OvsdbClient client = OvsdbClient.builder().remotes(warm.remote()).build().startAndWait(WAIT)) {
            for (int k = 0; k < WARM_UP; k++) {
                ovnjBatch(client, k);
            }
        }
        try (OvsdbServer server = OvsdbServer.start();
                OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).build().startAndWait(WAIT)) {
            double[] ms = new double[batches];
            for (int k = 0; k < batches; k++) {
                long t0 = System.nanoTime();
                ovnjBatch(client, k);
                ms[k] = (System.nanoTime() - t0) / 1e6;
            }
            return median(ms);
        }
    }

    private static void ovnjBatch(OvsdbClient client, int k) {
        {
            {
                List<String> argv = new ArrayList<>();
                for (List<String> command : batch(k)) {
                    if (!argv.isEmpty()) {
                        argv.add("--");
                    }
                    argv.addAll(command);
                }
                NbctlCommandLine.Result r = NbctlCommandLine.run(client, NbctlCommandLine.parse(argv), WAIT);
                Scenarios.check(r.exitCode() == 0, "ovnj batch " + k + ": " + r.stderr());
            }
        }
    }

    private static double perCommand(int batches, String daemonSocket) throws Exception {
        try (OvsdbServer server = daemonSocket == null ? OvsdbServer.start() : null) {
            String db = server == null ? null : server.remote();
            double[] ms = new double[batches];
            for (int k = 0; k < batches; k++) {
                long t0 = System.nanoTime();
                for (List<String> command : batch(k)) {
                    List<String> args = new ArrayList<>();
                    if (db != null) {
                        args.add("--db=" + db);
                    }
                    args.addAll(command);
                    exec(OvnRelease.current().command("ovn-nbctl", args), daemonSocket);
                }
                ms[k] = (System.nanoTime() - t0) / 1e6;
            }
            return median(ms);
        }
    }

    private static double daemon(int batches) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Path dir = Files.createTempDirectory("nbctl-daemon");
            List<String> start = OvnRelease.current().command("ovn-nbctl", "--db=" + server.remote(), "--detach",
                    "--pidfile=" + dir.resolve("nbctl.pid"), "--log-file=" + dir.resolve("nbctl.log"),
                    "--unixctl=" + dir.resolve("nbctl.ctl"));
            exec(start, null);
            String socket = dir.resolve("nbctl.ctl").toString();
            try {
                return perCommand(batches, socket);
            } finally {
                long pid = Long.parseLong(Files.readString(dir.resolve("nbctl.pid")).trim());
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
            }
        }
    }

    private static double pythonIdl(int batches) throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            Path dir = Files.createTempDirectory("nbctl-idl");
            Path script = dir.resolve("nbctl_batch_idl.py");
            try (InputStream in = NbctlBatchScenario.class.getResourceAsStream("nbctl_batch_idl.py")) {
                Files.copy(in, script);
            }
            Path schema = Schemas.ovnNorthbound(dir);
            Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), server.remote(), schema.toString(), "0",
                    Integer.toString(batches)).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Scenarios.check(p.waitFor(10, TimeUnit.MINUTES) && p.exitValue() == 0, "python IDL batch: " + out);
            double[] ms = Arrays.stream(out.trim().split("\n")).mapToDouble(Double::parseDouble).toArray();
            return median(ms);
        }
    }

    private static void exec(List<String> argv, String daemonSocket) throws Exception {
        ProcessBuilder b = new ProcessBuilder(argv).redirectErrorStream(true);
        if (daemonSocket != null) {
            b.environment().put("OVN_NB_DAEMON", daemonSocket);
        }
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Scenarios.check(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", argv) + ": " + out);
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
