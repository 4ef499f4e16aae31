package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A JVM that starts servers and exits without closing them must leave no ovsdb-server behind. */
class OrphanProcessIT {

    /** Child JVM entry point: start a server and a cluster, print their pids, exit without closing. */
    public static void main(String[] args) {
        OvsdbServer server = OvsdbServer.start();
        OvsdbCluster cluster = OvsdbCluster.start(3);
        System.out.println("PID " + server.pid());
        cluster.members().forEach(m -> System.out.println("PID " + m.pid()));
        System.out.flush();
        System.exit(0);
    }

    @Test
    void shutdownHookKillsEveryServerTheJvmStarted() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), OrphanProcessIT.class.getName())
                .redirectErrorStream(true).start();
        java.util.List<Long> pids = new java.util.ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("PID ")) {
                    pids.add(Long.parseLong(line.substring(4).trim()));
                }
            }
        }
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(pids).hasSize(4);
        Await.until(Duration.ofSeconds(5), "orphaned ovsdb-servers to exit",
                () -> pids.stream().noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)));
    }
}
