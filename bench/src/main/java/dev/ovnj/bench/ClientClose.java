package dev.ovnj.bench;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link OvsdbClient#close()} costs its caller: N clients of one {@code ovsdb-server}
 * process, one after the other, each synced with the engine's monitor and then closed; prints the
 * first close of the JVM and the median, 90th percentile and largest of the others, in
 * milliseconds, and the ovnj threads alive at the end. Asserts nothing.
 *
 * <p>Arguments: {@code [CLIENTS]} (default 20).
 */
public final class ClientClose {
    private ClientClose() {
    }

    /**
     * Runs the measurement and prints it.
     *
     * @param args optional number of clients
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        List<Long> closes = new ArrayList<>();
        try (OvsdbServer server = OvsdbServer.start()) {
            for (int i = 0; i < n; i++) {
                OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest())
                        .build().startAndWait(Duration.ofSeconds(30));
                long t0 = System.nanoTime();
                client.close();
                closes.add(System.nanoTime() - t0);
            }
        }
        long first = closes.get(0);
        List<Long> rest = new ArrayList<>(closes.subList(1, closes.size()));
        rest.sort(null);
        long ovnjThreads = Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith("ovnj")).count();
        System.out.printf(Locale.ROOT, "%d clients: close() first %.1f ms; others median %.1f, p90 %.1f, max %.1f ms; ovnj threads left: %d%n",
                n, first / 1e6, rest.get(rest.size() / 2) / 1e6, rest.get(Math.min(rest.size() - 1, (int) Math.ceil(rest.size() * 0.9) - 1)) / 1e6,
                rest.get(rest.size() - 1) / 1e6, ovnjThreads);
    }
}
