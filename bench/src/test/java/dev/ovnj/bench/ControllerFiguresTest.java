package dev.ovnj.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The controller scenario's arithmetic and its target notes, on made-up figures (nothing is run). */
class ControllerFiguresTest {
    @Test
    void perServiceFiguresAndShares() {
        // 1,000 Services: 25 s to the last ingress, 10 s of controller CPU, 25 s of the mock's,
        // 4 of ovsdb-server's, 1 of the harness's; 80 MB live heap. Serving none: serving after
        // 5 s, 2 s of CPU, 30 MB.
        ControllerRun run = new ControllerRun(1000, 25, 10, 25, 4, 1, 80e6, new ControllerRun.Baseline(5, 2, 30e6));
        assertThat(run.perServiceMillis()).isCloseTo(20, within(1e-9));
        assertThat(run.cpuPerServiceMillis()).isCloseTo(8, within(1e-9));
        assertThat(run.heapPerServiceKb()).isCloseTo(50, within(1e-9));
        assertThat(run.totalCpu()).isCloseTo(40, within(1e-9));
        assertThat(run.controllerShare()).isCloseTo(0.25, within(1e-9));
        assertThat(run.mockShare()).isCloseTo(0.625, within(1e-9));
    }

    @Test
    void targetsAreRatiosOfTheTwoSizes() {
        Results r = new Results(new Results.Machine(2, 23.4, "OpenJDK 17", "3.1.0", "23.03.1", "Debian 12"));
        String s = KubernetesControllerScenario.NAME;
        r.add(s, "controller-1k", "per_service_ms", 20);
        r.add(s, "controller-10k", "per_service_ms", 29);
        r.add(s, "controller-1k", "heap_per_service_kb", 30);
        r.add(s, "controller-10k", "heap_per_service_kb", 31);
        r.add(s, "controller-1k", "restart_sent_txns", 0);
        r.add(s, "controller-10k", "restart_sent_txns", 2);
        new Targets(r, Scenarios.Sizes.full()).note();
        List<String> notes = r.notes().stream().filter(n -> n.startsWith("target controller")).toList();
        assertThat(notes).containsExactly(
                "target controller: per-Service time until ingress at 10k vs 1k Services within 1.5x: met (ratio = 1.45)",
                "target controller: heap per Service at 10k vs 1k Services no more: MISSED (ratio = 1.03)",
                "target controller: a restart at 1k Services sends no Northbound transaction: met (0 transactions)",
                "target controller: a restart at 10k Services sends no Northbound transaction: MISSED (2 transactions)");
    }

    @Test
    void noControllerTargetsWhenTheScenarioDidNotRun() {
        Results r = new Results(new Results.Machine(2, 23.4, "OpenJDK 17", "3.1.0", "23.03.1", "Debian 12"));
        new Targets(r, Scenarios.Sizes.quick()).note();
        assertThat(r.notes()).noneMatch(n -> n.contains("controller"));
    }

    @Test
    void prometheusSumsTheSamplesOfOneMetric() {
        PrometheusText text = new PrometheusText("""
                # HELP jvm_memory_used_bytes The amount of used memory
                # TYPE jvm_memory_used_bytes gauge
                jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1.0E7
                jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2.5E7
                jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 4.0E7
                ovnj_client_transactions_total 12.0
                ovnj_client_transactions_failed_total 3.0
                """);
        assertThat(text.sum("jvm_memory_used_bytes", "area=\"heap\"")).isEqualTo(3.5e7);
        assertThat(text.sum("ovnj_client_transactions_total", "")).isEqualTo(12);
        assertThat(text.sum("ovnj_kubernetes_reconcile_seconds_count", "")).isZero();
    }

    @Test
    void transactRequestsAreCountedFromTheServersDebugLog() {
        String log = """
                2026-11-27T15:06:48Z|00001|vlog|INFO|opened log file /tmp/s.log
                2026-11-27T15:06:49.538Z|00010|jsonrpc|DBG|unix#1: received request, method="transact", params=["OVN_Northbound"], id=3
                2026-11-27T15:06:49.539Z|00011|jsonrpc|DBG|unix#1: send reply, result=[{"uuid":["uuid","x"]}], id=3
                2026-11-27T15:06:49.540Z|00012|jsonrpc|DBG|unix#1: received request, method="monitor_cond_since", params=[], id=4
                2026-11-27T15:06:49.541Z|00013|jsonrpc|DBG|tcp:127.0.0.1:5: received request, method="transact", params=[], id=5
                """;
        assertThat(KubernetesControllerScenario.transactRequests(log)).isEqualTo(2);
    }
}
