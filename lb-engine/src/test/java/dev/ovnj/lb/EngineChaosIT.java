package dev.ovnj.lb;

import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.NbctlException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The engine under chaos: random desired changes, foreign writes (router ports, switch ports,
 * foreign load balancers, drift of owned rows), listeners that throw, and server restarts, for
 * {@code -Dovnj.chaosSeconds} (default 60). Afterwards the database equals the desired state,
 * every future has completed, and every status matches the database.
 */
class EngineChaosIT {
    static final Duration DURATION = Duration.ofSeconds(Long.getLong("ovnj.chaosSeconds", 60));
    static final int SPECS = 40;

    @Test
    void randomChangesForeignWritesThrowingListenersAndRestartsEndInTheDesiredState() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            f.engine.addListener(new ListenerIsolationIT.Thrower());
            AtomicInteger statusReads = new AtomicInteger();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onStatus(SpecStatus status) {
                    f.engine.status(OWNER);
                    statusReads.incrementAndGet();
                }
            });
            Map<Integer, LoadBalancerSpec> desired = new ConcurrentHashMap<>();
            List<CompletableFuture<ApplyResult>> futures = new CopyOnWriteArrayList<>();
            AtomicBoolean running = new AtomicBoolean(true);
            Thread changes = new Thread(() -> desiredChanges(f, desired, futures, running), "chaos-desired");
            Thread foreign = new Thread(() -> foreignWrites(f.nbctl, running), "chaos-foreign");
            changes.start();
            foreign.start();

            long end = System.nanoTime() + DURATION.toNanos();
            long restartEvery = Math.max(5_000, DURATION.toMillis() / 4);
            int restarts = 0;
            while (System.nanoTime() < end) {
                Thread.sleep(Math.min(restartEvery, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                if (System.nanoTime() < end) {
                    f.server.restart();
                    restarts++;
                }
            }
            running.set(false);
            changes.join();
            foreign.join();

            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).handle((x, e) -> null).get(90, TimeUnit.SECONDS);
            assertThat(futures).as("every future completed").allMatch(CompletableFuture::isDone);
            // A remove of a spec never declared (or already gone) says so: nothing else may fail.
            assertThat(futures.stream().filter(CompletableFuture::isCompletedExceptionally)
                    .filter(fut -> !(fut.handle((r, e) -> e).join() instanceof UnknownSpecException)).toList())
                    .as("no future failed: nothing here is invalid, conflicting or refused").isEmpty();

            List<LoadBalancerSpec> want = new ArrayList<>(desired.values());
            try {
                Await.until(Duration.ofSeconds(60), "database equals the desired state", () -> OwnedRows.rows(f.nbctl).equals(OwnedRows.expected(want))
                        && ownedOnRouter(f.nbctl) == want.size() && OwnedRows.attachments(f.nbctl)[1] == want.size());
            } finally {
                System.out.println("chaos: rows " + OwnedRows.rows(f.nbctl) + "\nexpected " + OwnedRows.expected(want)
                        + "\non router " + ownedOnRouter(f.nbctl) + ", on switch " + OwnedRows.attachments(f.nbctl)[1]
                        + "\nstatus " + f.engine.status(OWNER) + "\nmetrics " + f.engine.metrics());
            }
            Await.until(Duration.ofSeconds(30), "every status matches the database", () -> statusesMatch(f, want));
            assertThat(f.engine.plan(OWNER, want).isEmpty()).isTrue();
            assertThat(f.engine.isAvailable()).isTrue();
            assertThat(f.engine.metrics().listenerFailures()).isPositive();
            assertThat(statusReads.get()).isPositive();
            assertThat(restarts).isPositive();
            assertThat(futures.size()).isGreaterThan(50);
        }
    }

    private static boolean statusesMatch(EngineFixture f, List<LoadBalancerSpec> want) {
        Map<String, SpecStatus> status = f.engine.status(OWNER);
        if (status.size() != want.size()) {
            return false;
        }
        for (LoadBalancerSpec s : want) {
            SpecStatus st = status.get(s.name());
            if (st == null || st.state() != SpecStatus.State.APPLIED || st.observedGeneration() != st.generation()) {
                return false;
            }
            String uuid = f.nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=" + s.name() + "-tcp").trim();
            if (uuid.isEmpty() || uuid.contains("\n") || !st.rows().equals(java.util.Set.of(UUID.fromString(uuid)))) {
                return false;
            }
        }
        return true;
    }

    /** Owned load balancers attached to the router (foreign ones come and go there too). */
    private static int ownedOnRouter(Nbctl nbctl) {
        String owned = nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "external_ids:ovnj.owner=" + OWNER);
        String attached = nbctl.run("get", "Logical_Router", "shalb-dev", "load_balancer");
        int n = 0;
        for (String uuid : owned.split("\\s+")) {
            if (!uuid.isBlank() && attached.contains(uuid)) {
                n++;
            }
        }
        return n;
    }

    private static void desiredChanges(EngineFixture f, Map<Integer, LoadBalancerSpec> desired,
                                       List<CompletableFuture<ApplyResult>> futures, AtomicBoolean running) {
        Random rnd = new Random(14);
        for (int version = 1; running.get(); version++) {
            int i = rnd.nextInt(SPECS);
            int dice = rnd.nextInt(10);
            if (dice < 7) {
                LoadBalancerSpec s = spec(i, version);
                desired.put(i, s);
                futures.add(f.engine.upsert(OWNER, s));
            } else if (dice < 9) {
                desired.remove(i);
                futures.add(f.engine.remove(OWNER, "svc-" + i));
            } else {
                futures.add(f.engine.apply(OWNER, List.copyOf(desired.values())));
            }
            sleep(20 + rnd.nextInt(40));
        }
    }

    /** Other clients: router and switch ports, foreign load balancers, and drift of owned rows. */
    private static void foreignWrites(Nbctl nbctl, AtomicBoolean running) {
        Random rnd = new Random(7);
        for (int k = 0; running.get(); k++) {
            int n = rnd.nextInt(8);
            try {
                switch (rnd.nextInt(6)) {
                    case 0 -> nbctl.run("--may-exist", "lrp-add", "shalb-dev", "chaos-lrp-" + n, String.format("02:00:00:00:01:%02x", n),
                            "10.50." + n + ".1/24");
                    case 1 -> nbctl.run("--if-exists", "lrp-del", "chaos-lrp-" + n);
                    case 2 -> nbctl.run("--may-exist", "lsp-add", "shalb-dev-default", "chaos-lsp-" + n);
                    case 3 -> nbctl.run("--if-exists", "lsp-del", "chaos-lsp-" + n);
                    case 4 -> {
                        nbctl.run("--if-exists", "lb-del", "chaos-lb-" + n);
                        nbctl.run("lb-add", "chaos-lb-" + n, "192.0.2." + (n + 1) + ":80", "10.9.0." + k % 250 + ":80");
                        if (rnd.nextBoolean()) {
                            nbctl.run("lr-lb-add", "shalb-dev", "chaos-lb-" + n);
                        }
                    }
                    default -> nbctl.run("--if-exists", "lb-del", "svc-" + rnd.nextInt(SPECS) + "-tcp");
                }
            } catch (NbctlException e) {
                // The server is restarting, or a row this writer guessed at is not there.
            }
            sleep(30 + rnd.nextInt(50));
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
