package dev.ovnj.examples;

import dev.ovnj.lb.ApplyResult;
import dev.ovnj.lb.EngineListener;
import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.lb.RepairEvent;
import dev.ovnj.lb.SpecStatus;
import dev.ovnj.lb.spec.Endpoint;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.nb.eip.EipAllocator;
import dev.ovnj.nb.eip.EipRequest;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.io.PrintStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The README's embedding example: connect to an OVN Northbound cluster, take an external IP from
 * the project router's external port, and declare one TCP load balancer on it for the router and
 * the project's switch. The engine keeps running afterwards, repairing drift, until closed.
 *
 * <p>The code between the {@code README-BEGIN} and {@code README-END} markers is the README's
 * "Embedding" section, word for word ({@code ReadmeSnippetTest} checks that).
 */
public final class Quickstart implements AutoCloseable {
    private final OvsdbClient client;
    private final LoadBalancerEngine engine;
    private final ApplyResult result;

    private Quickstart(OvsdbClient client, LoadBalancerEngine engine, ApplyResult result) {
        this.client = client;
        this.engine = engine;
        this.result = result;
    }

    /**
     * Runs the example against the kube-dc style project topology: router {@code shalb-dev} with the
     * external port {@code shalb-dev-ext}, and switch {@code shalb-dev-default}.
     *
     * @param remotes the cluster's members, e.g. {@code tcp:10.0.0.1:6641,tcp:10.0.0.2:6641}
     * @param out where the listener and the result are printed
     * @return the running example, holding the engine until closed
     * @throws ExecutionException when the EIP allocation or the apply fails
     * @throws TimeoutException when either takes longer than ten seconds
     * @throws InterruptedException when interrupted while waiting
     */
    public static Quickstart run(String remotes, PrintStream out)
            throws ExecutionException, TimeoutException, InterruptedException {
        // README-BEGIN
        OvsdbClient client = OvsdbClient.builder()
                .remotes(remotes)                                   // "tcp:10.0.0.1:6641,tcp:10.0.0.2:6641,..."
                .monitor(LoadBalancerEngine.monitorRequest())       // replicate only what the engine reads
                .build();
        LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start();
        engine.addListener(new EngineListener() {
            @Override public void onStatus(SpecStatus s) {
                out.println(s.spec() + " " + s.state() + " " + s.reasons());
            }
            @Override public void onRepair(RepairEvent r) {
                out.println("repaired " + r.row() + " (" + r.what() + ") in " + r.latency().toMillis() + " ms");
            }
        });
        client.startAndWait(Duration.ofSeconds(10));

        InetAddress eip;
        try (EipAllocator allocator = new EipAllocator(client)) {   // follows the client's updates until closed
            eip = allocator.allocate(EipRequest.of("shalb-dev-ext", "shalb-dev/api")).get(10, TimeUnit.SECONDS);
        }
        LoadBalancerSpec api = LoadBalancerSpec.builder("shalb-dev-api")
                .routers("shalb-dev").switches("shalb-dev-default")
                .tcp(new Endpoint(eip, 6443).toString(), "10.1.0.10:6443", "10.1.0.11:6443")   // [v6]:port too
                .build();
        ApplyResult result = engine.apply("shalb-dev", List.of(api)).get(10, TimeUnit.SECONDS);
        out.println(result);
        // README-END
        return new Quickstart(client, engine, result);
    }

    /**
     * What the example's {@code apply} achieved.
     *
     * @return the result
     */
    public ApplyResult result() {
        return result;
    }

    /** Stops the engine, then the client it writes through. */
    @Override
    public void close() {
        engine.close();
        client.close();
    }

    /**
     * Runs the example and keeps repairing drift until the process is stopped.
     *
     * @param args the remotes; {@code tcp:127.0.0.1:6641} when absent
     * @throws Exception when the example fails
     */
    public static void main(String[] args) throws Exception {
        Quickstart running = run(args.length > 0 ? args[0] : "tcp:127.0.0.1:6641", System.out);
        Runtime.getRuntime().addShutdownHook(new Thread(running::close));
        Thread.currentThread().join();
    }
}
