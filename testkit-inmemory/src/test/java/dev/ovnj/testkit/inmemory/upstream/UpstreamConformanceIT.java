package dev.ovnj.testkit.inmemory.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.inmemory.InMemoryOvsdbServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
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
 * the same text on the in-memory server. The IDL cases run on it twice: without transaction
 * history (as {@code ovnj serve --no-history}) against the standalone server, and with it (as
 * {@code ovnj serve}) against the standalone server or, where the IDL reconnects, a one-member
 * cluster, which also keeps a history.
 *
 * <p>The IDL cases also judge ovnj's client: {@code scripts/test-ovsdb} (test-ovsdb.py's idl
 * command driving {@code OvsdbClient}) runs them, and the C IDL cases that test what the client
 * has, against ovsdb-server; the class prints one line for that run (run, same, different,
 * excluded with the reason).
 */
class UpstreamConformanceIT {
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

        /** A backup server (--sync-from an active server that is not there) is read-only. */
        @Override
        public CaseRunner.Server startReadOnly(Path schema) {
            OvsdbServer s = OvsdbServer.builder().schema(schema).extraArgs("--sync-from=tcp:127.0.0.1:1").start();
            return server(s.remote(), s::close);
        }
    };

    private static final CaseRunner.Target CLUSTER = new CaseRunner.Target() {
        @Override
        public String name() {
            return "one-member ovsdb-server cluster";
        }

        @Override
        public CaseRunner.Server start(Path schema) {
            OvsdbCluster c = OvsdbCluster.start(1, schema);
            c.awaitLeader();
            return server(c.member(0).remote(), c::close);
        }
    };

    /**
     * {@code -Dovnj.upstream.serveJar=cli/target/ovnj.jar} runs the cases against {@code ovnj serve}
     * processes (with and without {@code --no-history}) instead of in-process servers: the same
     * server behind the command line, at the cost of a JVM start per case.
     */
    private static final String SERVE_JAR = System.getProperty("ovnj.upstream.serveJar", "");

    private static CaseRunner.Target inMemory(boolean history) {
        return SERVE_JAR.isEmpty() ? inProcess(history) : new ServeProcess(Path.of(SERVE_JAR), history);
    }

    private static CaseRunner.Target inProcess(boolean history) {
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

            @Override
            public CaseRunner.Server startReadOnly(Path schema) {
                InMemoryOvsdbServer s = InMemoryOvsdbServer.builder().schema(schema).history(history).start();
                s.readOnly(true);
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
            String standalone = runner.run(c, PROCESS);
            assertThat(standalone).as("ovsdb-server against the .at file: " + c.where()).isEqualTo(c.expected());
            // ovnj serve has no read-only switch: a read-only case runs on the in-process server.
            boolean readOnly = c instanceof UpstreamCase.Execution e && e.readOnly();
            CaseRunner.Target withHistory = readOnly ? inProcess(true) : inMemory(true);
            if (!(c instanceof UpstreamCase.Idl idl)) {
                same(c, withHistory, runner.run(c, withHistory), PROCESS, standalone);
                return;
            }
            // A standalone ovsdb-server keeps no transaction history: an IDL that reconnects gets
            // every row again (found=false). A cluster member keeps it and sends only what changed.
            // The in-memory server without history must behave like the first, with it like the
            // second; where the IDL does not reconnect, both must print what the standalone prints.
            CaseRunner.Target noHistory = inMemory(false);
            same(c, noHistory, runner.run(c, noHistory), PROCESS, standalone);
            if (!idl.commands().contains("reconnect")) {
                same(c, withHistory, runner.run(c, withHistory), PROCESS, standalone);
                return;
            }
            String cluster = withoutServerIndexUpdates(runner.run(c, CLUSTER));
            System.out.println("reconnecting IDL case " + c.where() + ": a one-member cluster "
                    + (cluster.equals(standalone) ? "prints what a standalone server prints" : "differs from a standalone server"
                    + firstDifference(standalone, cluster)));
            same(c, withHistory, withoutServerIndexUpdates(runner.run(c, withHistory)), CLUSTER, cluster);
        }));
    }

    private static final Pattern SERVER_ROW_UPDATE = Pattern.compile("(?m)^\\d{3}: event:update, row=\\{\\}, uuid=<\\d+>, updates=\\{\\}\n");

    /**
     * A cluster member's {@code _Server} Database row changes its {@code index} with every commit,
     * which a notifying IDL prints as an empty update; the in-memory server's row says
     * {@code standalone} and has no index, as a standalone server's does. Only that is left out.
     */
    private static String withoutServerIndexUpdates(String idlOutput) {
        return SERVER_ROW_UPDATE.matcher(idlOutput).replaceAll("");
    }

    private static void same(UpstreamCase c, CaseRunner.Target target, String got, CaseRunner.Target referenceTarget,
            String reference) {
        assertThat(got).as(target.name() + " against " + referenceTarget.name() + ": " + c.where()
                + firstDifference(reference, got)).isEqualTo(reference);
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

    /**
     * {@code scripts/test-ovsdb}: test-ovsdb.py's idl command with ovnj's client in the Python
     * IDL's place. Its time limit is a minute, not the .at file's 10 s: a JVM starts more slowly
     * than Python, the more so on a loaded CI machine.
     */
    private static final String OVNJ_DRIVER = Path.of("").toAbsolutePath().getParent().resolve("scripts/test-ovsdb") + " -t60";

    /** A 3-member cluster, the IDL on its first member, as OVSDB_CHECK_CLUSTER_IDL starts it. */
    private static final CaseRunner.Target THREE_MEMBERS = new CaseRunner.Target() {
        @Override
        public String name() {
            return "3-member ovsdb-server cluster";
        }

        @Override
        public CaseRunner.Server start(Path schema) {
            OvsdbCluster c = OvsdbCluster.start(3, schema);
            c.awaitLeader();
            return server(c.member(0).remote(), c::close);
        }
    };

    /** ovsdb-server with {@code monitor_cond} and {@code monitor_cond_since} turned off: it answers them "unknown method". */
    private static final CaseRunner.Target WITHOUT_MONITOR_COND = new CaseRunner.Target() {
        @Override
        public String name() {
            return "ovsdb-server without monitor_cond";
        }

        @Override
        public CaseRunner.Server start(Path schema) {
            OvsdbServer s = OvsdbServer.builder().schema(schema).start();
            s.appctl("ovsdb-server/disable-monitor-cond");
            return server(s.remote(), s::close);
        }
    };

    /** The client run's tally, printed in one line when the class ends. */
    private static final ClientTally CLIENT = new ClientTally();

    /**
     * ovsdb-idl.at's Python IDL cases again, with ovnj's client driven by {@code scripts/test-ovsdb}
     * (test-ovsdb.py's steps and output) against ovsdb-server, and the C IDL cases that test what
     * ovnj's client has (with the C driver's commands and output): each must print the .at file's
     * expected text, as OVS's IDL does, or differ from it only as {@link ClientDifferences} documents.
     */
    @TestFactory
    Stream<DynamicTest> ovnjClientPrintsWhatTheIdlCasesExpect() {
        CaseRunner runner = new CaseRunner(dir);
        UpstreamSuites suites = UpstreamSuites.load();
        Stream<UpstreamCase> cases = Stream.of(suites.runnable().stream().filter(c -> c instanceof UpstreamCase.Idl),
                suites.cIdlCases().stream(), suites.withoutMonitorCond().stream(), suites.onCluster().stream()).flatMap(x -> x);
        return cases.filter(c -> c.where().contains(ONLY)).map(c -> DynamicTest.dynamicTest(c.where(), () -> {
                    Optional<String> excluded = UpstreamSuites.ovnjExclusion((UpstreamCase.Idl) c);
                    if (excluded.isPresent()) {
                        CLIENT.excluded(c.where(), excluded.get());
                        return;
                    }
                    CaseRunner.Target target = suites.withoutMonitorCond().contains(c) ? WITHOUT_MONITOR_COND
                            : suites.onCluster().contains(c) ? THREE_MEMBERS : PROCESS;
                    String got = runner.run(c, target, OVNJ_DRIVER);
                    List<ClientDifferences.Rule> documented = ClientDifferences.explain(c.expected(), got);
                    CLIENT.ran(c.where(), got.equals(c.expected()), documented);
                    if (!documented.isEmpty()) {
                        return;
                    }
                    assertThat(got).as("ovnj's client (scripts/test-ovsdb) against the .at file: " + c.where()
                            + firstDifference(c.expected(), got)).isEqualTo(c.expected());
                }));
    }

    @AfterAll
    static void printClientTally() {
        if (CLIENT.any()) {
            System.out.println(CLIENT.summary());
        }
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
