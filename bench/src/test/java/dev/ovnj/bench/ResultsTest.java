package dev.ovnj.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTest {
    static Results sample() {
        Results r = new Results(new Results.Machine(2, 23.4, "OpenJDK 17", "3.1.0", "23.03.1", "Debian 12"));
        r.add("bulk-create", "ovnj-pipelined", "wall_s", 1.234);
        r.add("bulk-create", "python-idl", "wall_s", 12.5);
        r.add("bulk-create", "ovsdb-server", "cpu_s", 1.1);
        r.add("engine-converge", "ovnj-engine", "txns", 11);
        r.note("target x: met");
        return r;
    }

    @Test
    void jsonHasTheAgreedShape() throws Exception {
        JsonNode root = new ObjectMapper().readTree(sample().toJson());
        assertThat(root.fieldNames()).toIterable().containsExactly("machine", "results");
        JsonNode m = root.get("machine");
        assertThat(m.fieldNames()).toIterable().containsExactly("cores", "memory_gb", "jdk", "ovs", "ovn", "os");
        assertThat(m.get("cores").asInt()).isEqualTo(2);
        assertThat(root.get("results")).hasSize(4);
        JsonNode first = root.get("results").get(0);
        assertThat(first.fieldNames()).toIterable().containsExactly("scenario", "client", "metric", "value");
        assertThat(first.get("scenario").asText()).isEqualTo("bulk-create");
        assertThat(first.get("client").asText()).isEqualTo("ovnj-pipelined");
        assertThat(first.get("metric").asText()).isEqualTo("wall_s");
        assertThat(first.get("value").asDouble()).isEqualTo(1.234);
    }

    @Test
    void addingTheSameKeyReplacesTheValue() {
        Results r = sample();
        r.add("bulk-create", "python-idl", "wall_s", 13.0);
        assertThat(r.results()).hasSize(4);
        assertThat(r.get("bulk-create", "python-idl", "wall_s")).contains(13.0);
        // In place: a client measured again keeps its row where the tables had it.
        assertThat(r.results()).extracting(Results.Result::client)
                .containsExactly("ovnj-pipelined", "python-idl", "ovsdb-server", "ovnj-engine");
    }

    @Test
    void forksMergeAsMediansWithTheP99Spread() {
        Results.Machine machine = sample().machine();
        java.util.List<Results> forks = new java.util.ArrayList<>();
        double[][] p99s = {{0.70}, {0.50}, {0.90}};
        for (int k = 0; k < 3; k++) {
            Results f = new Results(machine);
            f.add("scale", "ovnj-engine-1k", "p99_ms", p99s[k][0]);
            f.add("scale", "ovnj-engine-1k", "cpu_us", 100 + k);
            f.samples("scale", "ovnj-engine-1k", new double[] {k, k + 10});
            f.note("fork " + k);
            forks.add(f);
        }
        Results r = new Results(machine);
        r.mergeMedians(forks);
        assertThat(r.get("scale", "ovnj-engine-1k", "p99_ms")).contains(0.70);
        assertThat(r.get("scale", "ovnj-engine-1k", "p99_ms_min")).contains(0.50);
        assertThat(r.get("scale", "ovnj-engine-1k", "p99_ms_max")).contains(0.90);
        assertThat(r.get("scale", "ovnj-engine-1k", "cpu_us")).contains(101.0);
        assertThat(r.get("scale", "ovnj-engine-1k", "cpu_us_min")).isEmpty();
        assertThat(r.samples()).singleElement().satisfies(x -> assertThat(x.values()).containsExactly(0, 1, 2, 10, 11, 12));
        assertThat(r.notes()).containsExactly("fork 0", "fork 1", "fork 2");
    }

    @Test
    void oneForkMergesAsItIs() {
        Results f = new Results(sample().machine());
        f.add("scale", "ovnj-engine-1k", "p99_ms", 0.6);
        Results r = new Results(f.machine());
        r.mergeMedians(java.util.List.of(f));
        assertThat(r.results()).containsExactly(new Results.Result("scale", "ovnj-engine-1k", "p99_ms", 0.6));
    }

    @Test
    void markdownHasOneTablePerScenarioWithMachineAndCommand() {
        String md = sample().toMarkdown("bench/run.sh");
        assertThat(md).contains("2 cores, 23.4 GB RAM, JDK OpenJDK 17, OVS 3.1.0, OVN 23.03.1, Debian 12")
                .contains("Command: `bench/run.sh`")
                .contains("**bulk-create**\n\n| client | wall_s | cpu_s |\n|---|---:|---:|\n")
                .contains("| ovnj-pipelined | 1.23 |  |")
                .contains("| ovsdb-server |  | 1.10 |")
                .contains("| ovnj-engine | 11 |")
                .contains("- target x: met");
    }

    @Test
    void formatsCountsAsIntegersAndTimesWithFewDigits() {
        assertThat(Results.format("txns", 12345)).isEqualTo("12,345");
        assertThat(Results.format("warm_passes", 3)).isEqualTo("3");
        assertThat(Results.format("reconnect_bytes", 5120.4)).isEqualTo("5,120");
        assertThat(Results.format("wall_s", 0.01234)).isEqualTo("0.012");
        assertThat(Results.format("p99_ms", 45.67)).isEqualTo("45.7");
    }

    @Test
    void writesBothFiles(@TempDir Path dir) throws Exception {
        sample().write(dir, "bench/run.sh --quick");
        assertThat(Files.readString(dir.resolve("latest.json"))).contains("\"machine\"");
        assertThat(Files.readString(dir.resolve("latest.md"))).contains("bench/run.sh --quick");
    }

    @Test
    void aForksResultsSamplesAndNotesMergeAsIfAddedHere() {
        Results fork = new Results(new Results.Machine(2, 1, "j", "o", "n", "os"));
        fork.add("scale", "ovnj-engine-1k", "p99_ms", 0.51);
        fork.add("scale", "ovnj-engine-1k", "max_ms", Double.NaN);
        fork.samples("scale", "ovnj-engine-1k", new double[] {0.3, 0.2, 0.5});
        fork.note("scale 1k: a note");
        String line = fork.toForkJson();
        assertThat(line).doesNotContain("\n");

        Results run = sample();
        run.add("scale", "ovnj-engine-1k", "p99_ms", 9.0);
        run.merge(line);
        assertThat(run.get("scale", "ovnj-engine-1k", "p99_ms")).contains(0.51);
        assertThat(run.get("scale", "ovnj-engine-1k", "max_ms").orElseThrow()).isNaN();
        assertThat(run.get("bulk-create", "python-idl", "wall_s")).contains(12.5);
        assertThat(run.samples()).singleElement().satisfies(s -> {
            assertThat(s.client()).isEqualTo("ovnj-engine-1k");
            assertThat(s.values()).containsExactly(0.2, 0.3, 0.5);
        });
        assertThat(run.notes()).containsExactly("target x: met", "scale 1k: a note");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run.merge("{\"results\": 1}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Results.toForkJson");
    }
}
