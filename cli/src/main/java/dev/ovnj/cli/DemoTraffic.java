package dev.ovnj.cli;

import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.Host;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.ProbeReport;
import dev.ovnj.testkit.Prober;
import dev.ovnj.testkit.Reply;
import dev.ovnj.testkit.Transport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The demo's real packets: on a {@link Chassis} (ovs-vswitchd and ovn-controller on this machine),
 * the project's gateway port on an external switch with a client, and the backends of the two
 * services the demo breaks (etcd on 2379, ingress on 443) as hosts that answer with their names.
 * The client asks the EIP before the drift, a probe sends it a request every
 * {@value #INTERVAL_MS} ms through each repair and says how long the traffic was dark, and a last
 * request shows it answers again.
 */
final class DemoTraffic {
    /** The EIP, the project router's external address. */
    static final String EIP = "168.119.17.51";
    private static final String CLIENT_IP = "168.119.17.60";
    private static final int INTERVAL_MS = 10;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** A probe is stopped once this long of answers in a row followed the repair. */
    private static final Duration SETTLED = Duration.ofSeconds(1);

    private final Chassis chassis;
    private final PrintStream out;
    private Host client;

    DemoTraffic(Chassis chassis, PrintStream out) {
        this.chassis = chassis;
        this.out = out;
    }

    /**
     * Adds to the seed topology what packets need, printing the commands: the gateway chassis, the
     * project switch's router port, the external switch with the client's port, the backends' ports;
     * then starts the hosts and their servers.
     */
    void seed(Nbctl nbctl, DemoCommand.Shell shell) {
        shell.show("lrp-set-gateway-chassis", "shalb-dev-ext", chassis.name(), "10");
        shell.show("lrp-add", "shalb-dev", "shalb-dev-int", "02:00:00:00:00:02", "10.1.0.1/24");
        shell.show("lsp-add", "shalb-dev-default", "shalb-dev-default-rtr", "--", "lsp-set-type", "shalb-dev-default-rtr", "router",
                "--", "lsp-set-addresses", "shalb-dev-default-rtr", "router", "--", "lsp-set-options", "shalb-dev-default-rtr",
                "router-port=shalb-dev-int");
        shell.show("ls-add", "ext", "--", "lsp-add", "ext", "ext-shalb-dev", "--", "lsp-set-type", "ext-shalb-dev", "router",
                "--", "lsp-set-addresses", "ext-shalb-dev", "router", "--", "lsp-set-options", "ext-shalb-dev", "router-port=shalb-dev-ext");
        List<String[]> backends = List.of(new String[] {"etcd0", "10.1.0.40", "2379"}, new String[] {"etcd1", "10.1.0.41", "2379"},
                new String[] {"ingress0", "10.1.0.30", "8443"}, new String[] {"ingress1", "10.1.0.31", "8443"});
        int i = 0;
        for (String[] b : backends) {
            String mac = String.format(Locale.ROOT, "0a:00:00:00:01:%02x", ++i);
            nbctl.run("lsp-add", "shalb-dev-default", b[0], "--", "lsp-set-addresses", b[0], mac + " " + b[1]);
        }
        nbctl.run("lsp-add", "ext", "client", "--", "lsp-set-addresses", "client", "0a:00:00:00:02:3c " + CLIENT_IP);
        i = 0;
        for (String[] b : backends) {
            String mac = String.format(Locale.ROOT, "0a:00:00:00:01:%02x", ++i);
            chassis.host(b[0]).port(b[0]).mac(mac).ipv4(b[1] + "/24", "10.1.0.1").start().serve(Integer.parseInt(b[2]));
        }
        client = chassis.host("client").port("client").mac("0a:00:00:00:02:3c").ipv4(CLIENT_IP + "/28", EIP).start();
        out.println("hosts (network namespaces on br-int, each server answering with its name): client " + CLIENT_IP
                + " on switch ext; etcd0 10.1.0.40:2379, etcd1 10.1.0.41:2379, ingress0 10.1.0.30:8443, ingress1 10.1.0.31:8443"
                + " on shalb-dev-default");
        out.println();
    }

    /** Asks the EIP until it answers (the flows are on their way from ovn-northd and ovn-controller), and prints it. */
    void firstAnswer(int port, long appliedAtNanos) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Reply r;
        do {
            r = client.request(Transport.TCP, EIP, port, REQUEST_TIMEOUT);
        } while (!r.answered() && System.nanoTime() < deadline);
        if (!r.answered()) {
            throw new CliFailure("the EIP " + EIP + ":" + port + " did not answer within " + DatabaseOptions.seconds(WAIT) + " (" + r + ")");
        }
        out.println(String.format(Locale.ROOT, "$ curl %s:%d   (from the client, %s)", EIP, port, CLIENT_IP));
        out.println(String.format(Locale.ROOT, "%s; the first answer came %.0f ms after apply() (ovn-northd and ovn-controller"
                + " installing the flows)", r, (System.nanoTime() - appliedAtNanos) / 1e6));
        out.println();
    }

    /** Starts a client sending a TCP request to the EIP's port every {@value #INTERVAL_MS} ms, once it is answered. */
    Prober watch(int port) {
        Prober p = client.probe(Transport.TCP, EIP, port, Duration.ofMillis(INTERVAL_MS), REQUEST_TIMEOUT);
        if (!p.awaitAnswer(WAIT)) {
            p.close();
            throw new CliFailure("the EIP " + EIP + ":" + port + " did not answer the probe within " + DatabaseOptions.seconds(WAIT));
        }
        return p;
    }

    /**
     * Waits until the traffic is answered again for a while after a repair, stops the probe, and
     * says how long the client saw no answers.
     */
    String blackout(Prober p, int port) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline && !settled(p.report())) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        ProbeReport r = p.stop();
        String answered = r.endedDark() ? "; still dark " + DatabaseOptions.seconds(WAIT) + " after the repair" : "";
        return String.format(Locale.ROOT, "  traffic: the client's requests to %s:%d (one every %d ms) were dark for %d ms"
                + " (%d of %d failed, the longest run %d in a row)%s", EIP, port, INTERVAL_MS, r.blackout().toMillis(), r.failures(),
                r.total(), r.longestFailureRun(), answered);
    }

    private static boolean settled(ProbeReport r) {
        List<ProbeReport.Sample> s = r.samples();
        if (s.isEmpty() || !s.get(s.size() - 1).reply().answered()) {
            return false;
        }
        long last = s.get(s.size() - 1).sentMillis();
        for (int i = s.size() - 1; i >= 0; i--) {
            if (!s.get(i).reply().answered()) {
                return last - s.get(i).sentMillis() >= SETTLED.toMillis();
            }
        }
        return last - s.get(0).sentMillis() >= SETTLED.toMillis();
    }

    /** One more request to the EIP, printed as a terminal would. */
    boolean curl(int port) {
        Reply r = client.request(Transport.TCP, EIP, port, REQUEST_TIMEOUT);
        out.println(String.format(Locale.ROOT, "$ curl %s:%d   (from the client, %s)", EIP, port, CLIENT_IP));
        out.println(r);
        return r.answered();
    }
}
