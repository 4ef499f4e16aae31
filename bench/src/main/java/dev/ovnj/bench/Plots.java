package dev.ovnj.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The plots of one run, written next to {@code latest.md} as SVG: the scale curve (latency and
 * converge time against the number of specs), latency distributions of incremental, drift-repair
 * and gc-storm, ovnj against the peers (bulk-create wall time against the floor, sync time), and
 * the soak's resources and repair p99 per window.
 * Only plots with data in the run are written.
 */
final class Plots {
    private Plots() {
    }

    /**
     * Writes every plot the results have data for.
     *
     * @param results the run
     * @param dir the output directory
     * @return the files written
     */
    static List<Path> write(Results results, Path dir) {
        List<Path> written = new ArrayList<>();
        List<ScalePoint> scale = scalePoints(results);
        if (!scale.isEmpty()) {
            double[] xs = scale.stream().mapToDouble(ScalePoint::specs).toArray();
            written.add(file(dir, "scale-latency.svg", Svg.lines("scale: incremental upsert latency", "specs (log)", "ms", true, List.of(
                    new Svg.Series("p50", xs, scale.stream().mapToDouble(p -> value(results, p.client(), "p50_ms")).toArray()),
                    new Svg.Series("p99", xs, scale.stream().mapToDouble(p -> value(results, p.client(), "p99_ms")).toArray())))));
            written.add(file(dir, "scale-converge.svg", Svg.lines("scale: converge through a group from empty", "specs (log)",
                    "seconds", true, List.of(
                            new Svg.Series("engine wall", xs, scale.stream().mapToDouble(p -> value(results, p.client(), "wall_s")).toArray()),
                            new Svg.Series("engine CPU", xs, scale.stream().mapToDouble(p -> value(results, p.client(), "cpu_s")).toArray()),
                            new Svg.Series("ovsdb-server CPU", xs,
                                    scale.stream().mapToDouble(p -> value(results, p.client(), "server_cpu_s")).toArray())))));
        }
        distribution(results, dir, "incremental", List.of("incremental", "scale"), "incremental upsert latency", written);
        distribution(results, dir, "drift-repair", List.of("drift-repair"), "drift-repair latency", written);
        distribution(results, dir, "gc-storm", List.of("gc-storm"), "gc-storm: per-row time until restored (3 rounds)", written);
        for (String scenario : List.of("bulk-create", "bulk-create-monitor", "bulk-create-cluster")) {
            List<Svg.Bar> bars = bars(results, scenario, "wall_s");
            if (!bars.isEmpty()) {
                double floor = results.get(scenario, "floor", "cpu_s").orElse(Double.NaN);
                written.add(file(dir, "peers-" + scenario + ".svg", Svg.bars(scenario + ": wall time by client", "seconds (wall)",
                        bars, floor, "floor: lowest ovsdb-server CPU")));
            }
        }
        List<String> windows = results.results().stream()
                .filter(r -> r.scenario().equals("soak") && r.client().startsWith(Soak.WINDOW_PREFIX)).map(Results.Result::client)
                .distinct().sorted(Comparator.comparingInt(w -> Integer.parseInt(w.substring(Soak.WINDOW_PREFIX.length())))).toList();
        if (!windows.isEmpty()) {
            double[] xs = windows.stream().mapToDouble(w -> Integer.parseInt(w.substring(Soak.WINDOW_PREFIX.length()))).toArray();
            written.add(file(dir, "soak-resources.svg", Svg.lines("soak: per window, after the window's checks", "window", "",
                    false, List.of(soakSeries(results, windows, xs, "heap_mb", "heap after GC (MB)"),
                            soakSeries(results, windows, xs, "threads", "live threads"),
                            soakSeries(results, windows, xs, "fds", "open file descriptors")))));
            written.add(file(dir, "soak-repair.svg", Svg.lines("soak: drift repair p99 per window", "window", "ms", false,
                    List.of(soakSeries(results, windows, xs, "repair_p99_ms", "repair p99")))));
        }
        List<Svg.Bar> sync = bars(results, "sync", "sync_s");
        if (!sync.isEmpty()) {
            written.add(file(dir, "peers-sync.svg", Svg.bars("sync: time until the client holds the database", "seconds", sync,
                    Double.NaN, "")));
        }
        return written;
    }

    private static Svg.Series soakSeries(Results results, List<String> windows, double[] xs, String metric, String label) {
        return new Svg.Series(label, xs, windows.stream().mapToDouble(w -> results.get("soak", w, metric).orElse(0.0)).toArray());
    }

    /** One size of the scale curve. */
    private record ScalePoint(String client, int specs) {
    }

    private static List<ScalePoint> scalePoints(Results results) {
        return results.results().stream().filter(r -> r.scenario().equals("scale") && r.metric().equals("wall_s"))
                .map(r -> new ScalePoint(r.client(), specsOf(r.client()))).sorted(Comparator.comparingInt(ScalePoint::specs)).toList();
    }

    /** {@code ovnj-engine-10k} -> 10000. */
    static int specsOf(String client) {
        String label = client.substring(client.lastIndexOf('-') + 1);
        return label.endsWith("k") ? Integer.parseInt(label.substring(0, label.length() - 1)) * 1000 : Integer.parseInt(label);
    }

    private static double value(Results results, String client, String metric) {
        return results.get("scale", client, metric).orElse(0.0);
    }

    private static void distribution(Results results, Path dir, String name, List<String> scenarios, String title, List<Path> written) {
        List<Svg.Series> series = new ArrayList<>();
        for (Results.Samples s : results.samples()) {
            if (scenarios.contains(s.scenario()) && s.values().length > 0) {
                String label = s.scenario().equals("scale") ? s.client() : s.scenario().equals(name) ? s.client() : s.scenario();
                series.add(new Svg.Series(label, s.values(), new double[0]));
            }
        }
        if (!series.isEmpty()) {
            written.add(file(dir, "latency-" + name + ".svg", Svg.cdf(title, "ms", series, 99.9)));
        }
    }

    private static List<Svg.Bar> bars(Results results, String scenario, String metric) {
        return results.results().stream().filter(r -> r.scenario().equals(scenario) && r.metric().equals(metric))
                .map(r -> new Svg.Bar(r.client(), r.value())).toList();
    }

    private static Path file(Path dir, String name, String svg) {
        try {
            Files.createDirectories(dir);
            Path p = dir.resolve(name);
            Files.writeString(p, svg, StandardCharsets.UTF_8);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
