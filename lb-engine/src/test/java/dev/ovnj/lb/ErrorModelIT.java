package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.testkit.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The error model of docs/user-guide.md ("Errors"), against a real ovsdb-server: a misuse throws
 * at the call; a set declared with {@code apply} completes normally with every spec's state, an
 * INVALID one included; one spec declared with {@code upsert} completes exceptionally with a
 * verdict other than APPLIED or WAITING; a removed spec's last event is {@code onRemoved}, once its
 * rows are gone.
 */
class ErrorModelIT {

    @Test
    void misuseThrowsSetsAnswerWithStatesSingleSpecsFailAndARemovedSpecEndsWithOnRemoved() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (EngineFixture f = new EngineFixture()) {
            try (LoadBalancerEngine notStarted = LoadBalancerEngine.builder(f.client).build()) {
                assertThatThrownBy(() -> notStarted.upsert(OWNER, spec(0, 1))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("call start() before apply, upsert, remove, declareComplete or releaseHeldDeletions");
            }
            f.engine.addListener(new EngineListener() {
                @Override
                public void onStatus(SpecStatus status) {
                    events.add("status " + status.spec() + " " + status.state());
                }

                @Override
                public void onRemoved(String owner, String spec) {
                    events.add("removed " + owner + "/" + spec);
                }
            });
            // svc-9 takes svc-0's VIP: INVALID within the set, which is answered normally.
            LoadBalancerSpec clash = LoadBalancerSpec.builder("svc-9").routers("shalb-dev")
                    .tcp(spec(0, 1).vips().get(0).vip(), "10.2.0.1:8080").build();
            ApplyResult set = f.engine.apply(OWNER, List.of(spec(0, 1), spec(1, 1), clash)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(set.allApplied()).isFalse();
            assertThat(set.statuses().get("svc-0").state()).isEqualTo(SpecStatus.State.APPLIED);
            assertThat(set.statuses().get("svc-9").state()).isEqualTo(SpecStatus.State.INVALID);
            // The same spec alone through upsert: the future fails with the verdict, and nothing is written.
            assertThatThrownBy(() -> f.engine.upsert(OWNER, clash).get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(InvalidSpecException.class)
                    .hasMessageContaining("svc-0");
            assertThat(f.lines("--bare", "--columns=name", "find", "Load_Balancer", "name=svc-9-tcp")).isEmpty();

            // remove: once its rows are gone, the spec's last event is onRemoved.
            f.engine.remove(OWNER, "svc-1").get(WAIT.toSeconds(), TimeUnit.SECONDS);
            Await.until(WAIT, "onRemoved for svc-1", () -> events.contains("removed " + OWNER + "/svc-1"));
            assertThat(f.engine.status(OWNER)).doesNotContainKey("svc-1");
            assertThat(f.lines("--bare", "--columns=name", "find", "Load_Balancer", "name=svc-1-tcp")).isEmpty();
            assertThat(lastAbout("svc-1", events)).isEqualTo("removed " + OWNER + "/svc-1");

            // An apply that no longer names a spec removes it the same way.
            f.engine.apply(OWNER, List.of(spec(1, 1))).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            Await.until(WAIT, "onRemoved for svc-0", () -> events.contains("removed " + OWNER + "/svc-0"));
            assertThat(lastAbout("svc-0", events)).isEqualTo("removed " + OWNER + "/svc-0");
            assertThat(events).filteredOn(e -> e.startsWith("removed ")).doesNotHaveDuplicates();
        }
    }

    private static String lastAbout(String spec, List<String> events) {
        List<String> about = events.stream().filter(e -> e.endsWith(" " + spec) || e.contains(" " + spec + " ") || e.endsWith("/" + spec))
                .toList();
        return about.get(about.size() - 1);
    }
}
