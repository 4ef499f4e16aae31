package dev.ovnj.cli;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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
 * and drift made behind the engine's back with ovn-nbctl, repaired and confirmed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a local NB ovsdb-server, apply load balancers through the engine, break them with ovn-nbctl, watch the repairs, stop.")
final class DemoCommand implements Callable<Integer> {
    private static final String STATE = "demo-state.yaml";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @Mixin
    private VerboseOption verbose;

    private final PrintStream out = System.out;

    @Override
    public Integer call() throws InterruptedException, ExecutionException, TimeoutException {
        try (OvsdbServer server = OvsdbServer.start()) {
            out.println("started ovsdb-server (OVN_Northbound " + Schemas.NB_VERSION + ") on " + server.remote());
            Nbctl nbctl = Nbctl.of(server);
            out.println();
            out.println("seed topology:");
            show(nbctl, "lr-add", "shalb-dev");
            show(nbctl, "lrp-add", "shalb-dev", "shalb-dev-ext", "02:00:00:00:00:01", "168.119.17.51/28");
            show(nbctl, "ls-add", "shalb-dev-default");
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
                return run(nbctl, engine, repairs);
            } finally {
                out.println();
                out.println("stopping ovsdb-server");
            }
        }
    }

    private int run(Nbctl nbctl, LoadBalancerEngine engine, BlockingQueue<RepairEvent> repairs)
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
        List<String> views = List.of(show(nbctl, "lb-list"), show(nbctl, "lr-lb-list", "shalb-dev"),
                show(nbctl, "ls-lb-list", "shalb-dev-default"));

        out.println("drift behind the engine's back:");
        show(nbctl, "lb-del", "shalb-dev-etcd-lb-tcp");
        awaitRepair(repairs, "shalb-dev-etcd-lb-tcp");
        show(nbctl, "lb-del", "shalb-dev-ingress-tcp", "168.119.17.51:443");
        awaitRepair(repairs, "shalb-dev-ingress-tcp");

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
        return 0;
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
