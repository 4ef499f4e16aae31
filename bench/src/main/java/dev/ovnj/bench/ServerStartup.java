package dev.ovnj.bench;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a test pays for its server: start-up (until the server answers), the first sync of an
 * ovnj client with the engine's monitor, and tear-down, for an {@code ovsdb-server} process and
 * for the in-memory server, both through testkit's {@link OvsdbServer} as a test gets them.
 * Prints medians and 90th percentiles in milliseconds; asserts nothing.
 *
 * <p>Arguments: {@code [ROUNDS]} (default 30, after 5 warm-up rounds of each kind). The first
 * server of each kind is reported separately, since it includes class loading.
 */
public final class ServerStartup {
    private ServerStartup() {
    }

    /**
     * Runs the measurement and prints the table.
     *
     * @param args optional number of rounds
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        // The first server of a JVM also pays for loading classes. The process goes first, so the
        // client's classes (Netty, Jackson) are loaded and the in-memory figure is what it adds.
        long[] coldProcess = measure(false, 1).get(0);
        long[] coldMemory = measure(true, 1).get(0);
        measure(true, 5);
        measure(false, 5);
        List<long[]> process = measure(false, rounds);
        List<long[]> memory = measure(true, rounds);
        System.out.printf(Locale.ROOT, "%d rounds each; milliseconds, median / p90%n", rounds);
        System.out.printf(Locale.ROOT, "%-22s %-18s %-18s %-18s %-18s%n", "server", "start", "first sync", "close", "per test");
        print("ovsdb-server process", process);
        print("in-memory", memory);
        System.out.printf(Locale.ROOT, "first of the JVM (cold): process %.1f ms, in-memory %.1f ms per test%n",
                coldProcess[3] / 1e6, coldMemory[3] / 1e6);
    }

    private static List<long[]> measure(boolean inMemory, int rounds) {
        List<long[]> samples = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            long t0 = System.nanoTime();
            OvsdbServer server = OvsdbServer.builder().inMemory(inMemory).start();
            long t1 = System.nanoTime();
            OvsdbClient client = OvsdbClient.builder().remotes(server.remote()).monitor(LoadBalancerEngine.monitorRequest())
                    .build();
            client.startAndWait(Duration.ofSeconds(30));
            long t2 = System.nanoTime();
            client.close();
            server.close();
            long t3 = System.nanoTime();
            samples.add(new long[] {t1 - t0, t2 - t1, t3 - t2, t3 - t0});
        }
        return samples;
    }

    private static void print(String name, List<long[]> samples) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-22s", name));
        for (int k = 0; k < 4; k++) {
            List<Long> v = new ArrayList<>();
            for (long[] s : samples) {
                v.add(s[k]);
            }
            v.sort(null);
            double median = v.get(v.size() / 2) / 1e6;
            double p90 = v.get(Math.min(v.size() - 1, (int) Math.ceil(v.size() * 0.9) - 1)) / 1e6;
            line.append(String.format(Locale.ROOT, " %-18s", String.format(Locale.ROOT, "%.1f / %.1f", median, p90)));
        }
        System.out.println(line);
    }
}
