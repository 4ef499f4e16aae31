package dev.ovnj.testkit.inmemory.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.inmemory.InMemoryOvsdbServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open vSwitch's own OVSDB test suites (v3.1.0, the release of the installed ovsdb-server) run
 * against ovsdb-server and against the in-memory server: every case that can run over a socket
 * ({@link UpstreamSuites}), through the same tools upstream's macros use ({@code ovsdb-client
 * transact}, {@code ovsdb-client monitor}/{@code monitor-cond} with {@code cond_change}, the OVS
 * Python IDL driver {@code test-ovsdb.py}), with upstream's filters ({@code uuidfilt},
 * {@code ovsdb-monitor-sort}). Each case must print upstream's expected text on ovsdb-server, and
 * the same text on the in-memory server, which runs once with its transaction history (as
 * {@code ovnj serve}) and once without (as {@code ovnj serve --no-history}) for the IDL cases.
 */
class UpstreamConformanceIT {
    /**
     * Cases whose expected text ovsdb-server itself does not print when run over a socket, with
     * why; the in-memory server must then print what ovsdb-server prints.
     */
    private static final Map<String, String> SERVER_DIFFERS_FROM_AT_FILE = Map.of();

    /** Cases the in-memory server still gets wrong; empty when it passes every case. */
    private static final Set<String> KNOWN_DIFFERENCES = Set.of(
            "ovsdb-execution.at:252 insert row with uuid, query table",
            "ovsdb-execution.at:619 insert and update constraints",
            "ovsdb-execution.at:847 weak references",
            "ovsdb-idl.at:1867 simple idl verify notify",
            "ovsdb-idl.at:2625 simple idl, persistent uuid insert");

    private static final CaseRunner.Target PROCESS = new CaseRunner.Target() {
        @Override
        public String name() {
            return "ovsdb-server";
        }

        @Override
        public CaseRunner.Server start(Path schema) {
            OvsdbServer s = OvsdbServer.builder().schema(schema).start();
            return server(s.remote(), s::close);
        }
    };

    private static CaseRunner.Target inMemory(boolean history) {
        return new CaseRunner.Target() {
            @Override
            public String name() {
                return history ? "in-memory" : "in-memory --no-history";
            }

            @Override
            public CaseRunner.Server start(Path schema) {
                InMemoryOvsdbServer s = InMemoryOvsdbServer.builder().schema(schema).history(history).start();
                return server(s.remote(), s::close);
            }
        };
    }

    private static CaseRunner.Server server(String remote, Runnable close) {
        return new CaseRunner.Server() {
            @Override
            public String remote() {
                return remote;
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }

    /** {@code -Dovnj.upstream.only=TEXT} runs only the cases whose file, line or title contain TEXT. */
    private static final String ONLY = System.getProperty("ovnj.upstream.only", "");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> everySocketRunnableCaseMatchesOvsdbServer() {
        CaseRunner runner = new CaseRunner(dir);
        return UpstreamSuites.load().runnable().stream().filter(c -> c.where().contains(ONLY)).map(c -> DynamicTest.dynamicTest(c.where(), () -> {
            String real = runner.run(c, PROCESS);
            String expectedOnServer = SERVER_DIFFERS_FROM_AT_FILE.containsKey(c.where()) ? real : c.expected();
            assertThat(real).as("ovsdb-server against the .at file: " + c.where()).isEqualTo(expectedOnServer);
            List<CaseRunner.Target> targets = new ArrayList<>(List.of(inMemory(true)));
            if (c instanceof UpstreamCase.Idl) {
                targets.add(inMemory(false));
            }
            for (CaseRunner.Target t : targets) {
                String got = runner.run(c, t);
                if (KNOWN_DIFFERENCES.contains(c.where())) {
                    Assumptions.abort("known difference" + firstDifference(real, got));
                } else {
                    assertThat(got).as(t.name() + " against ovsdb-server: " + c.where() + firstDifference(real, got))
                            .isEqualTo(real);
                }
            }
        }));
    }

    /** The first line where two outputs differ, so that a long output's difference is easy to see. */
    private static String firstDifference(String want, String got) {
        String[] a = want.split("\n", -1);
        String[] b = got.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "(end)";
            String y = i < b.length ? b[i] : "(end)";
            if (!x.equals(y)) {
                return "\n  first difference, line " + (i + 1) + ":\n  ovsdb-server: " + x + "\n  this server:  " + y + "\n";
            }
        }
        return "";
    }

    @Test
    void everyUpstreamCaseIsRunOrHasAReason() {
        UpstreamSuites suites = UpstreamSuites.load();
        Map<String, Integer> byFile = new TreeMap<>();
        suites.runnable().forEach(c -> byFile.merge(c.where().substring(0, c.where().indexOf(':')) + " run", 1, Integer::sum));
        suites.notRun().forEach(n -> byFile.merge(n.where().substring(0, n.where().indexOf(':')) + " not run", 1, Integer::sum));
        System.out.println("upstream OVSDB cases: " + byFile);
        suites.notRun().forEach(n -> System.out.println("  not run: " + n.where() + " [" + n.macro() + "]: " + n.reason()));
        assertThat(suites.runnable()).hasSizeGreaterThan(60);
        assertThat(suites.notRun()).allSatisfy(n -> assertThat(n.reason()).isNotBlank());
        assertThat(suites.runnable()).allSatisfy(c -> assertThat(c.expected()).isNotBlank());
    }
}
