package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.Schemas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a controller team embedding the engine relies on (issue 52): a failed upsert leaves
 * nothing declared unless asked to; a client that gave up says why and fails requests at once;
 * close is bounded with a frozen server; a write after waiting is no drift repair; one exception
 * family; listeners can be removed; removing an unknown spec says so.
 */
class EmbeddingApiIT {
    private static final String OWNER = "team-b";
    private static final String TAKEN = "168.119.17.60:80";

    @TempDir
    Path dir;

    /** A row of no owner holding {@link #TAKEN} on the router, written by another tool and seen by the engine's cache. */
    private static void foreignRow(EngineFixture f) {
        f.nbctl.run("lb-add", "other-lb", TAKEN, "10.9.0.9:80", "tcp");
        f.nbctl.run("lr-lb-add", "shalb-dev", "other-lb");
        Await.until(WAIT, "the engine's cache has the foreign row on the router", () -> f.client.cache().table("Load_Balancer").rows()
                .stream().filter(r -> "other-lb".equals(String.valueOf(r.get("name")))).anyMatch(lb -> f.client.cache()
                        .table("Logical_Router").rows().stream().anyMatch(lr -> String.valueOf(lr.get("load_balancer")).contains(lb.uuid().toString()))));
    }

    private static LoadBalancerSpec spec(String name, String vip) {
        return LoadBalancerSpec.builder(name).routers("shalb-dev").tcp(vip, "10.1.0.5:8080").build();
    }

    private static List<String> rowsOf(Nbctl nbctl, String owner) {
        return List.of(nbctl.run("--format=csv", "--data=bare", "--no-headings", "--columns=name,vips", "find", "Load_Balancer",
                "external_ids:ovnj.owner=" + owner).lines().filter(l -> !l.isBlank()).toArray(String[]::new));
    }

    @Test
    void aFailedUpsertLeavesNothingDeclaredUnlessAskedToKeepIt() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            foreignRow(f);
            Throwable e = catchThrowable(() -> f.engine.upsert(OWNER, spec("b-steal", TAKEN)).get(10, TimeUnit.SECONDS));
            assertThat(e).isInstanceOf(ExecutionException.class).cause().isInstanceOf(SpecFailedException.class)
                    .hasMessageContaining("conflict");
            Await.until(WAIT, "the failed spec withdrawn", () -> !f.engine.status(OWNER).containsKey("b-steal"));

            // A spec that was declared before keeps its previous declaration.
            assertThat(f.engine.upsert(OWNER, spec("b-web", "168.119.17.61:80")).get(10, TimeUnit.SECONDS).allApplied()).isTrue();
            Throwable again = catchThrowable(() -> f.engine.upsert(OWNER, spec("b-web", TAKEN)).get(10, TimeUnit.SECONDS));
            assertThat(again).cause().isInstanceOf(SpecFailedException.class);
            Await.until(WAIT, "the previous declaration APPLIED again", () -> f.engine.status(OWNER).get("b-web") != null
                    && f.engine.status(OWNER).get("b-web").state() == SpecStatus.State.APPLIED);

            // The other owner's row goes: neither failed declaration is written.
            f.nbctl.run("lb-del", "other-lb");
            Thread.sleep(1500);
            assertThat(rowsOf(f.nbctl, OWNER)).containsExactly("b-web-tcp,168.119.17.61:80=10.1.0.5:8080");
            assertThat(f.engine.status(OWNER)).containsOnlyKeys("b-web");

            // The same with the other owner declared in this engine: its remove does not let the failed spec in.
            assertThat(f.engine.apply("team-a", List.of(spec("a-web", "168.119.17.65:80"))).get(10, TimeUnit.SECONDS).allApplied()).isTrue();
            Throwable taken = catchThrowable(() -> f.engine.upsert(OWNER, spec("b-take", "168.119.17.65:80")).get(10, TimeUnit.SECONDS));
            assertThat(taken).cause().isInstanceOf(SpecFailedException.class);
            f.engine.remove("team-a", "a-web").get(10, TimeUnit.SECONDS);
            Thread.sleep(1500);
            assertThat(rowsOf(f.nbctl, OWNER)).containsExactly("b-web-tcp,168.119.17.61:80=10.1.0.5:8080");

            // Asked to keep it declared, the spec is written once the row that blocked it goes.
            foreignRow(f);
            Throwable kept = catchThrowable(() -> f.engine.upsert(OWNER, spec("b-keep", TAKEN), UpsertOption.KEEP_DECLARED)
                    .get(10, TimeUnit.SECONDS));
            assertThat(kept).cause().isInstanceOf(SpecFailedException.class);
            assertThat(f.engine.status(OWNER).get("b-keep").state()).isEqualTo(SpecStatus.State.CONFLICT);
            f.nbctl.run("lb-del", "other-lb");
            Await.until(WAIT, "the kept spec written", () -> rowsOf(f.nbctl, OWNER).contains("b-keep-tcp," + TAKEN + "=10.1.0.5:8080"));
        }
    }

    @Test
    void anUpsertThatTimesOutIsWithdrawnAndThePreviousVersionStandsAfterResume() throws Exception {
        try (EngineFixture f = new EngineFixture(b -> b.requestTimeout(Duration.ofSeconds(2)))) {
            f.engine.upsert(OWNER, spec("b-web", "168.119.17.61:80")).get(10, TimeUnit.SECONDS);
            f.server.pause();
            try {
                Throwable e = catchThrowable(() -> f.engine.upsert(OWNER, spec("b-web", "168.119.17.62:80")).get(10, TimeUnit.SECONDS));
                assertThat(e).cause().isInstanceOf(SpecTimeoutException.class);
            } finally {
                f.server.resume();
            }
            Await.until(WAIT, "the previous version APPLIED", () -> {
                SpecStatus s = f.engine.status(OWNER).get("b-web");
                return s != null && s.state() == SpecStatus.State.APPLIED && s.observedGeneration() == s.generation();
            });
            Thread.sleep(500);
            assertThat(rowsOf(f.nbctl, OWNER)).containsExactly("b-web-tcp,168.119.17.61:80=10.1.0.5:8080");
        }
    }

    @Test
    void aClientGivenTheSouthboundSaysWhyAndRequestsFailAtOnce() throws Exception {
        try (OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbClient client = EngineFixture.client(sb.remote());
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
            client.start();
            Await.until(WAIT, "the client gave up", () -> client.gaveUp().isPresent());
            Await.until(WAIT, "availability says why", () -> engine.availability().contains("does not serve database OVN_Northbound"));
            assertThat(engine.availability()).contains("OVN_Southbound").contains(sb.remote());
            assertThat(engine.isAvailable()).isFalse();

            long t0 = System.nanoTime();
            Throwable e = catchThrowable(() -> engine.upsert(OWNER, spec("b-web", "168.119.17.61:80")).get(10, TimeUnit.SECONDS));
            // At once, not after the 30 s request timeout (nor the 10 s of this get).
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            assertThat(e).isInstanceOf(ExecutionException.class).cause().isInstanceOf(DatabaseGaveUpException.class)
                    .hasMessageContaining("does not serve database OVN_Northbound");
            assertThat(((DatabaseGaveUpException) e.getCause()).remote().map(Object::toString)).contains(sb.remote());
        }
    }

    @Test
    void aWaitingRequestFailsAtOnceWhenTheClientGivesUp() throws Exception {
        try (OvsdbServer sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
             OvsdbClient client = EngineFixture.client(sb.remote());
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build().start()) {
            // Declared before the client connects: it waits for the database, then hears why it never comes.
            var f = engine.apply(OWNER, List.of(spec("b-web", "168.119.17.61:80")));
            client.start();
            Throwable e = catchThrowable(() -> f.get(10, TimeUnit.SECONDS));
            assertThat(e).isInstanceOf(ExecutionException.class).cause().isInstanceOf(DatabaseGaveUpException.class)
                    .hasMessageContaining("OVN_Southbound");
        }
    }

    @Test
    void closeWithAFrozenServerReturnsAtOnceAndTheLockIsReleasedWhenItWakes() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient c1 = EngineFixture.client(server.remote()).startAndWait(WAIT);
             OvsdbClient c2 = EngineFixture.client(server.remote()).startAndWait(WAIT);
             OvsdbClient c3 = EngineFixture.client(server.remote()).startAndWait(WAIT)) {
            EngineFixture.seed(Nbctl.of(server));
            LoadBalancerEngine active = LoadBalancerEngine.builder(c1).lock("ovnj_lb").build().start();
            Await.until(WAIT, "active", active::isAvailable);
            assertThat(active.apply(OWNER, List.of(spec("b-web", "168.119.17.61:80"))).get(10, TimeUnit.SECONDS).allApplied()).isTrue();
            // An engine holding an owner lock, whose release it can wait for.
            LoadBalancerEngine waiting = LoadBalancerEngine.builder(c3).build().start();
            assertThat(waiting.apply("team-c", List.of(spec("c-web", "168.119.17.64:80"))).get(10, TimeUnit.SECONDS).allApplied()).isTrue();
            LoadBalancerEngine standby = LoadBalancerEngine.builder(c2).lock("ovnj_lb").build().start();
            Thread.sleep(300);
            assertThat(standby.isAvailable()).isFalse();

            server.pause();
            try {
                long t0 = System.nanoTime();
                active.close();
                // Generous for a loaded machine; the old close waited 2 s for the lock's release.
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));

                long t1 = System.nanoTime();
                boolean answered = waiting.close(Duration.ofMillis(200));
                assertThat(Duration.ofNanos(System.nanoTime() - t1)).isLessThan(Duration.ofSeconds(1));
                // Its owner lock's release was not answered by the frozen server.
                assertThat(answered).isFalse();
            } finally {
                server.resume();
            }
            // The release was sent: the standby takes over once the server reads it.
            Await.until(Duration.ofSeconds(10), "the standby takes over", standby::isAvailable);
            standby.close();
        }
    }

    @Test
    void aRouterAppearingIsAWriteAfterWaitingNotADriftRepair() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            List<AwaitedWriteEvent> awaited = new CopyOnWriteArrayList<>();
            f.engine.addListener(new EngineListener() {
                @Override
                public void onAwaitedWrite(AwaitedWriteEvent event) {
                    awaited.add(event);
                }
            });
            LoadBalancerSpec later = LoadBalancerSpec.builder("b-later").routers("r-later").tcp("168.119.17.62:80", "10.1.0.6:8080").build();
            ApplyResult r = f.engine.upsert(OWNER, later).get(10, TimeUnit.SECONDS);
            assertThat(r.statuses().get("b-later").state()).isEqualTo(SpecStatus.State.WAITING);

            f.nbctl.run("lr-add", "r-later");
            Await.until(WAIT, "applied once the router exists",
                    () -> f.engine.status(OWNER).get("b-later").state() == SpecStatus.State.APPLIED);
            Await.until(WAIT, "the write after waiting reported", () -> !awaited.isEmpty());
            assertThat(awaited).anySatisfy(e -> {
                assertThat(e.spec()).isEqualTo("b-later");
                assertThat(e.what()).contains("attached to router r-later");
                assertThat(e.waitedFor()).startsWith("WAITING");
            });
            assertThat(f.repairs).isEmpty();
            assertThat(f.engine.metrics().repairs()).isZero();
            assertThat(f.engine.metrics().awaitedWrites()).isPositive();
            assertThat(f.engine.status(OWNER).get("b-later").repairs()).isZero();

            // Drift is still a repair.
            f.nbctl.run("lb-del", "b-later-tcp");
            Await.until(WAIT, "the deleted row repaired", () -> !f.repairs.isEmpty());
            assertThat(f.engine.metrics().repairs()).isPositive();
        }
    }

    @Test
    void theEnginesExceptionsShareOneSealedRootAndKeepNoJdkBase() {
        List<Class<? extends RuntimeException>> kinds = List.of(SpecTimeoutException.class, SpecFailedException.class,
                EngineBusyException.class, EngineClosedException.class, InvalidSpecException.class, UnknownSpecException.class,
                DatabaseGaveUpException.class);
        assertThat(EngineException.class.isSealed()).isTrue();
        assertThat(EngineException.class.getPermittedSubclasses()).containsExactlyInAnyOrderElementsOf(kinds);
        for (Class<?> k : kinds) {
            assertThat(EngineException.class).isAssignableFrom(k);
            assertThat(IllegalStateException.class.isAssignableFrom(k)).as(k + " is no IllegalStateException").isFalse();
            assertThat(IllegalArgumentException.class.isAssignableFrom(k)).as(k + " is no IllegalArgumentException").isFalse();
        }
    }

    @Test
    void removingAnUnknownSpecSaysSoAndAListenerCanBeRemoved() throws Exception {
        try (EngineFixture f = new EngineFixture()) {
            Throwable e = catchThrowable(() -> f.engine.remove(OWNER, "never-declared").get(10, TimeUnit.SECONDS));
            assertThat(e).isInstanceOf(ExecutionException.class).cause().isInstanceOf(UnknownSpecException.class)
                    .hasMessageContaining("never-declared").hasMessageContaining("nothing removed");

            List<String> statuses = new CopyOnWriteArrayList<>();
            EngineListener listener = new EngineListener() {
                @Override
                public void onStatus(SpecStatus status) {
                    statuses.add(status.spec());
                }
            };
            f.engine.addListener(listener);
            f.engine.upsert(OWNER, spec("b-one", "168.119.17.61:80")).get(10, TimeUnit.SECONDS);
            Await.until(WAIT, "the listener hears b-one", () -> statuses.contains("b-one"));
            assertThat(f.engine.removeListener(listener)).isTrue();
            assertThat(f.engine.removeListener(listener)).isFalse();
            f.engine.upsert(OWNER, spec("b-two", "168.119.17.63:80")).get(10, TimeUnit.SECONDS);

            // A spec that is declared is removed as before, and a row left by an earlier run (not
            // declared in this engine) is known too.
            assertThat(f.engine.remove(OWNER, "b-one").get(10, TimeUnit.SECONDS).statuses()).doesNotContainKey("b-one");
            try (OvsdbClient c2 = EngineFixture.client(f.server.remote()).startAndWait(WAIT);
                 LoadBalancerEngine fresh = LoadBalancerEngine.builder(c2).ownerLocks(false).build().start()) {
                f.engine.close();
                fresh.remove(OWNER, "b-two").get(10, TimeUnit.SECONDS);
                assertThat(rowsOf(f.nbctl, OWNER)).isEmpty();
            }
            assertThat(statuses).doesNotContain("b-two");
        }
    }
}
