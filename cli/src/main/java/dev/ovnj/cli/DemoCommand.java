package dev.ovnj.cli;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Chassis;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Prober;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The README's demo: a throw-away Northbound database on loopback with the seed topology of a
 * kube-dc project, the project's services applied through the engine from a desired-state file,
 * and drift made behind the engine's back with ovn-nbctl, repaired and confirmed. Where the machine
 * can run a data plane (root, network namespaces, ovs-vswitchd and ovn-controller: see
 * {@link Chassis#unavailableReason()}), the database is that of a real {@link Chassis} and the demo
 * sends real packets ({@link DemoTraffic}): a client asks the EIP before the drift, a probe runs
 * through each repair and its blackout is printed beside the repair time, and the EIP answers
 * again at the end. Elsewhere it says why in one line and runs on the Northbound database alone.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start a local NB ovsdb-server, apply load balancers through the engine, break them with ovn-nbctl, watch the"
                + " repairs, stop.",
                "As root with network namespaces, ovs-vswitchd and ovn-controller (scripts/install-ovs.sh), the database is a real"
                        + " OVN data plane's: a client's requests to the EIP show the blackout each repair caused."})
final class DemoCommand implements Callable<Integer> {
    private static final String STATE = "demo-state.yaml";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    private static final int ETCD_PORT = 2379;
    private static final int INGRESS_PORT = 443;

    @Mixin
    private VerboseOption verbose;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws InterruptedException, ExecutionException, TimeoutException {
        Optional<String> why = Chassis.unavailableReason();
        if (why.isEmpty()) {
            Chassis chassis = null;
            try {
                chassis = Chassis.start();
            } catch (RuntimeException e) {
                why = Optional.of("the data plane did not start: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
            if (chassis != null) {
                try (Chassis c = chassis) {
                    out.println("started a data plane: OVN_Northbound and OVN_Southbound ovsdb-servers, ovn-northd, ovs-vswitchd"
                            + " (userspace datapath) and ovn-controller in network namespace " + c.name() + "; Northbound on "
                            + c.northbound().remote());
                    return demo(c.northbound(), Optional.of(new DemoTraffic(c, out)));
                } finally {
                    out.println();
                    out.println("stopping ovsdb-servers, ovn-northd, ovs-vswitchd, ovn-controller and the hosts");
                }
            }
        }
        out.println("real packets: not sent here (" + why.get() + "); the demo runs on a Northbound database alone");
        try (OvsdbServer server = OvsdbServer.start()) {
            out.println("started ovsdb-server (OVN_Northbound " + Schemas.NB_VERSION + ") on " + server.remote());
            return demo(server, Optional.empty());
        } finally {
            out.println();
            out.println("stopping ovsdb-server");
        }
    }

    /** The demo on a Northbound database, with real packets when {@code traffic} is there. */
    private int demo(OvsdbServer server, Optional<DemoTraffic> traffic)
            throws InterruptedException, ExecutionException, TimeoutException {
        Nbctl nbctl = Nbctl.of(server);
        Shell shell = args -> show(nbctl, args);
        out.println();
        out.println("seed topology:");
        shell.show("lr-add", "shalb-dev");
        shell.show("lrp-add", "shalb-dev", "shalb-dev-ext", "02:00:00:00:00:01", "168.119.17.51/28");
        shell.show("ls-add", "shalb-dev-default");
        if (traffic.isPresent()) {
            traffic.get().seed(nbctl, shell);
        }
        BlockingQueue<RepairEvent> repairs = new LinkedBlockingQueue<>();
        OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest())
                .backoff(Duration.ofMillis(20), Duration.ofMillis(500)).build();
        try (client; LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
            engine.addListener(new EngineListener() {
                @Override
                public void onRepair(RepairEvent event) {
                    repairs.add(event);
                }
            });
            engine.start();
            client.startAndWait(WAIT);
            return run(nbctl, engine, repairs, traffic);
        }
    }

    /** Runs ovn-nbctl as a terminal would show it. */
    @FunctionalInterface
    interface Shell {
        /**
         * Runs and prints one ovn-nbctl command.
         *
         * @param args its arguments
         * @return its output
         */
        String show(String... args);
    }

    private int run(Nbctl nbctl, LoadBalancerEngine engine, BlockingQueue<RepairEvent> repairs, Optional<DemoTraffic> traffic)
            throws InterruptedException, ExecutionException, TimeoutException {
        DesiredState state = DesiredStateReader.parse(STATE, resource(STATE));
        String owner = state.ownerOr(null);
        out.println();
        out.println("desired state (" + STATE + ", owner " + owner + "):");
        for (LoadBalancerSpec spec : state.specs()) {
            out.println("  " + spec.name() + ": " + spec.vips().stream().map(DemoCommand::describe).collect(Collectors.joining("; "))
                    + attachments(spec));
        }
        long start = System.nanoTime();
        ApplyResult result = engine.apply(owner, state.specs()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        out.println(String.format(Locale.ROOT, "applied through the engine in %.1f ms: %s", (System.nanoTime() - start) / 1e6,
                result.allApplied() ? "every load balancer in place" : result.statuses()));
        out.println();
        traffic.ifPresent(t -> t.firstAnswer(ETCD_PORT, start));
        List<String> views = List.of(show(nbctl, "lb-list"), show(nbctl, "lr-lb-list", "shalb-dev"),
                show(nbctl, "ls-lb-list", "shalb-dev-default"));

        out.println("drift behind the engine's back" + (traffic.isPresent() ? ", while the client sends requests to the EIP:" : ":"));
        drift(nbctl, repairs, traffic, ETCD_PORT, "shalb-dev-etcd-lb-tcp", "lb-del", "shalb-dev-etcd-lb-tcp");
        drift(nbctl, repairs, traffic, INGRESS_PORT, "shalb-dev-ingress-tcp", "lb-del", "shalb-dev-ingress-tcp", "168.119.17.51:443");

        out.println();
        out.println("after the repairs:");
        List<String> after = List.of(show(nbctl, "lb-list"), nbctl.run("lr-lb-list", "shalb-dev"),
                nbctl.run("ls-lb-list", "shalb-dev-default"));
        boolean same = true;
        for (int i = 0; i < views.size(); i++) {
            same &= normalized(views.get(i)).equals(normalized(after.get(i)));
        }
        boolean inSync = engine.plan(owner, state.specs()).isEmpty();
        if (!same || !inSync) {
            out.println("the database does NOT match the desired state after the repairs");
            return 1;
        }
        out.println("the database matches the desired state again: lb-list, lr-lb-list and ls-lb-list are as before the drift"
                + " (apart from the recreated row's UUID), and the engine plans no change");
        if (traffic.isPresent()) {
            out.println();
            boolean answered = traffic.get().curl(ETCD_PORT) & traffic.get().curl(INGRESS_PORT);
            if (!answered) {
                out.println("the EIP does NOT answer after the repairs");
                return 1;
            }
        }
        return 0;
    }

    /**
     * Breaks one thing with ovn-nbctl and waits for the engine's repair; with traffic, a probe runs
     * through it and the blackout it caused is printed under the repair time.
     */
    private void drift(Nbctl nbctl, BlockingQueue<RepairEvent> repairs, Optional<DemoTraffic> traffic, int port, String row,
                       String... command) throws InterruptedException {
        Optional<Prober> probe = traffic.map(t -> t.watch(port));
        try {
            show(nbctl, command);
            awaitRepair(repairs, row);
            traffic.ifPresent(t -> out.println(t.blackout(probe.get(), port)));
        } finally {
            probe.ifPresent(Prober::close);
        }
    }

    private void awaitRepair(BlockingQueue<RepairEvent> repairs, String row) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            RepairEvent e = repairs.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e != null) {
                out.println(RepairLine.of(e));
                if (e.row().equals(row)) {
                    return;
                }
            }
        }
        throw new CliFailure("the engine did not repair " + row + " within " + DatabaseOptions.seconds(WAIT));
    }

    /** Runs ovn-nbctl, printing the command line and its output as a terminal would. */
    private String show(Nbctl nbctl, String... args) {
        out.println("$ ovn-nbctl " + String.join(" ", args));
        String result = nbctl.run(args);
        if (!result.isBlank()) {
            out.println(result.stripTrailing());
            out.println();
        }
        return result;
    }

    /** A listing with UUIDs masked and lines sorted: a recreated row has a new UUID and may list elsewhere. */
    private static String normalized(String listing) {
        return listing.replaceAll(UUID, "UUID").lines().map(String::strip).sorted().collect(Collectors.joining("\n"));
    }

    private static String describe(VipSpec v) {
        return v.protocol().wireValue() + " " + v.vip() + " -> " + String.join(",", v.backends());
    }

    private static String attachments(LoadBalancerSpec spec) {
        return " (" + spec.group().map(g -> "group " + g + " on ").orElse("") + "routers " + names(spec.routers())
                + ", switches " + names(spec.switches()) + ")";
    }

    private static String names(java.util.Set<String> names) {
        return names.isEmpty() ? "-" : String.join(",", new java.util.TreeSet<>(names));
    }

    private static String resource(String name) {
        try (InputStream in = DemoCommand.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
