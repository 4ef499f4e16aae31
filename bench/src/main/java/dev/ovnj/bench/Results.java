package dev.ovnj.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The numbers of one harness run: the machine, one row per (scenario, client, metric), and notes
 * (target checks, caveats). Writes {@code latest.json} and the Markdown table for the docs.
 */
public final class Results {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The machine the run happened on. */
    public record Machine(int cores, double memoryGb, String jdk, String ovs, String ovn, String os) {
    }

    /** One measured value. */
    public record Result(String scenario, String client, String metric, double value) {
    }

    /**
     * The raw values behind a distribution (latencies in ms), kept for the plots; not in the JSON.
     *
     * @param scenario scenario name
     * @param client client name
     * @param values the values, sorted ascending
     */
    public record Samples(String scenario, String client, double[] values) {
    }

    private final Machine machine;
    private final List<Result> results = new ArrayList<>();
    private final List<Samples> samples = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private volatile boolean echo;

    /**
     * Starts empty results for a machine.
     *
     * @param machine the machine
     */
    public Results(Machine machine) {
        this.machine = machine;
    }

    /**
     * Also prints every value and note to stdout as it is added (the harness does; tests do not).
     *
     * @return this
     */
    public Results echo() {
        echo = true;
        return this;
    }

    /**
     * The machine.
     *
     * @return the machine
     */
    public Machine machine() {
        return machine;
    }

    /**
     * All results, in the order they were added.
     *
     * @return all results, in the order they were added
     */
    public List<Result> results() {
        return List.copyOf(results);
    }

    /**
     * Notes, in order.
     *
     * @return notes, in order
     */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /**
     * Adds a value, replacing an earlier one with the same key.
     *
     * @param scenario scenario name
     * @param client client name
     * @param metric metric name
     * @param value the value
     */
    public synchronized void add(String scenario, String client, String metric, double value) {
        // A value measured again (a client's next pass) keeps its place, so the tables' rows do too.
        Result next = new Result(scenario, client, metric, value);
        int at = indexOf(scenario, client, metric);
        if (at >= 0) {
            results.set(at, next);
        } else {
            results.add(next);
        }
        if (echo) {
            System.out.printf(Locale.ROOT, "  %-22s %-18s %-20s %s%n", scenario, client, metric, format(metric, value));
        }
    }

    /**
     * Keeps the raw values of a distribution for the plots, replacing earlier ones of the same key.
     *
     * @param scenario scenario name
     * @param client client name
     * @param values the values (copied and sorted)
     */
    public synchronized void samples(String scenario, String client, double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        samples.removeIf(x -> x.scenario().equals(scenario) && x.client().equals(client));
        samples.add(new Samples(scenario, client, sorted));
    }

    /**
     * The kept distributions, in the order they were added.
     *
     * @return the kept distributions
     */
    public synchronized List<Samples> samples() {
        return List.copyOf(samples);
    }

    /**
     * Adds a note for the Markdown (a target check or a caveat).
     *
     * @param note the text
     */
    public synchronized void note(String note) {
        notes.add(note);
        if (echo) {
            System.out.println("  note: " + note);
        }
    }

    /**
     * Looks a value up.
     *
     * @param scenario scenario
     * @param client client
     * @param metric metric
     * @return the value if recorded
     */
    public synchronized Optional<Double> get(String scenario, String client, String metric) {
        int at = indexOf(scenario, client, metric);
        return at < 0 ? Optional.empty() : Optional.of(results.get(at).value());
    }

    /** Where the value of this scenario, client and metric is in {@link #results}, or -1. */
    private int indexOf(String scenario, String client, String metric) {
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            if (r.scenario.equals(scenario) && r.client.equals(client) && r.metric.equals(metric)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The JSON document: {@code {"machine": {...}, "results": [...]}}.
     *
     * @return the JSON document: {
     */
    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode m = root.putObject("machine");
        m.put("cores", machine.cores());
        m.put("memory_gb", machine.memoryGb());
        m.put("jdk", machine.jdk());
        m.put("ovs", machine.ovs());
        m.put("ovn", machine.ovn());
        m.put("os", machine.os());
        ArrayNode arr = root.putArray("results");
        for (Result r : results) {
            ObjectNode o = arr.addObject();
            o.put("scenario", r.scenario());
            o.put("client", r.client());
            o.put("metric", r.metric());
            o.put("value", r.value());
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Everything but the machine as one line of JSON ({@code results}, {@code samples},
     * {@code notes}), for a forked JVM to hand its measurements to the harness ({@link #merge}).
     *
     * @return one line of JSON
     */
    public synchronized String toForkJson() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode arr = root.putArray("results");
        for (Result r : results) {
            arr.addObject().put("scenario", r.scenario()).put("client", r.client()).put("metric", r.metric()).put("value", r.value());
        }
        ArrayNode sam = root.putArray("samples");
        for (Samples s : samples) {
            ArrayNode values = sam.addObject().put("scenario", s.scenario()).put("client", s.client()).putArray("values");
            for (double v : s.values()) {
                values.add(v);
            }
        }
        ArrayNode n = root.putArray("notes");
        notes.forEach(n::add);
        try {
            return JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Adds the results, samples and notes of {@link #toForkJson()} written by another JVM, as if
     * they had been added here.
     *
     * @param forkJson the line
     * @throws IllegalArgumentException if the line is not such JSON
     */
    public void merge(String forkJson) {
        JsonNode root;
        try {
            root = JSON.readTree(forkJson);
        } catch (IOException e) {
            throw new IllegalArgumentException("not the JSON of Results.toForkJson: " + forkJson, e);
        }
        if (root == null || !root.path("results").isArray() || !root.path("samples").isArray() || !root.path("notes").isArray()) {
            throw new IllegalArgumentException("not the JSON of Results.toForkJson: " + forkJson);
        }
        for (JsonNode r : root.get("results")) {
            add(r.get("scenario").asText(), r.get("client").asText(), r.get("metric").asText(), r.get("value").asDouble());
        }
        for (JsonNode s : root.get("samples")) {
            double[] values = new double[s.get("values").size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = s.get("values").get(i).asDouble();
            }
            samples(s.get("scenario").asText(), s.get("client").asText(), values);
        }
        root.get("notes").forEach(n -> note(n.asText()));
    }

    /**
     * Adds the median of each figure over several measurements of the same thing (forks of one
     * size), with the smallest and largest {@code p99_ms} as {@code p99_ms_min} and
     * {@code p99_ms_max}; the raw values of their distributions are pooled and their notes kept.
     *
     * @param forks the results of each measurement
     */
    public void mergeMedians(List<Results> forks) {
        Map<List<String>, List<Double>> values = new LinkedHashMap<>();
        Map<List<String>, List<double[]>> pooled = new LinkedHashMap<>();
        for (Results fork : forks) {
            fork.results().forEach(r -> values.computeIfAbsent(List.of(r.scenario(), r.client(), r.metric()), k -> new ArrayList<>())
                    .add(r.value()));
            fork.samples().forEach(x -> pooled.computeIfAbsent(List.of(x.scenario(), x.client()), k -> new ArrayList<>()).add(x.values()));
            fork.notes().forEach(this::note);
        }
        values.forEach((key, v) -> {
            double[] sorted = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            add(key.get(0), key.get(1), key.get(2), sorted[(sorted.length - 1) / 2]);
            if (key.get(2).equals("p99_ms") && sorted.length > 1) {
                add(key.get(0), key.get(1), "p99_ms_min", sorted[0]);
                add(key.get(0), key.get(1), "p99_ms_max", sorted[sorted.length - 1]);
            }
        });
        pooled.forEach((key, arrays) -> samples(key.get(0), key.get(1),
                arrays.stream().flatMapToDouble(java.util.Arrays::stream).toArray()));
    }

    /**
     * The Markdown: machine, command, one table per scenario (clients by metrics), then notes.
     *
     * @param command the exact command that produced the run
     * @return Markdown text
     */
    public String toMarkdown(String command) {
        StringBuilder sb = new StringBuilder();
        sb.append("Machine: ").append(machine.cores()).append(" cores, ")
                .append(String.format(Locale.ROOT, "%.1f", machine.memoryGb())).append(" GB RAM, JDK ")
                .append(machine.jdk()).append(", OVS ").append(machine.ovs()).append(", OVN ").append(machine.ovn())
                .append(", ").append(machine.os()).append("\n\n");
        sb.append("Command: `").append(command).append("`\n\n");
        Map<String, List<Result>> byScenario = new LinkedHashMap<>();
        for (Result r : results) {
            byScenario.computeIfAbsent(r.scenario(), k -> new ArrayList<>()).add(r);
        }
        byScenario.forEach((scenario, rows) -> {
            Set<String> metrics = new LinkedHashSet<>();
            Set<String> clients = new LinkedHashSet<>();
            rows.forEach(r -> {
                metrics.add(r.metric());
                clients.add(r.client());
            });
            sb.append("**").append(scenario).append("**\n\n| client |");
            metrics.forEach(m -> sb.append(' ').append(m).append(" |"));
            sb.append("\n|---|");
            metrics.forEach(m -> sb.append("---:|"));
            sb.append('\n');
            for (String c : clients) {
                sb.append("| ").append(c).append(" |");
                for (String m : metrics) {
                    Optional<Result> v = rows.stream().filter(r -> r.client().equals(c) && r.metric().equals(m)).findFirst();
                    sb.append(' ').append(v.map(r -> format(m, r.value())).orElse("")).append(" |");
                }
                sb.append('\n');
            }
            sb.append('\n');
        });
        if (!notes.isEmpty()) {
            notes.forEach(n -> sb.append("- ").append(n).append('\n'));
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * Formats a value for people: counts and bytes as integers, times with 3 significant decimals.
     *
     * @param metric the metric name
     * @param value the value
     * @return text
     */
    static String format(String metric, double value) {
        if (metric.endsWith("txns") || metric.endsWith("passes") || metric.endsWith("_gcs") || metric.endsWith("_changes") || metric.endsWith("bytes") || metric.endsWith("_per_row") || metric.endsWith("_requests") || metric.endsWith("_writes") || metric.endsWith("_conditions") || metric.equals("reconciliations") || value == Math.rint(value) && Math.abs(value) >= 1000) {
            return String.format(Locale.ROOT, "%,d", Math.round(value));
        }
        double a = Math.abs(value);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        } else if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        } else if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /**
     * Writes {@code latest.json} and {@code latest.md} into a directory.
     *
     * @param dir the directory (created if needed)
     * @param command the command for the Markdown
     */
    public void write(Path dir, String command) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("latest.json"), toJson(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("latest.md"), toMarkdown(command), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
