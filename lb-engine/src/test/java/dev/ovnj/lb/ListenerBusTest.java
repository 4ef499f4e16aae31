package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Events go to the listeners that override their method, and no kind nobody listens to is queued. */
class ListenerBusTest {

    /** A base class overriding a method counts for its subclasses too. */
    abstract static class RepairCounter implements EngineListener {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void onRepair(RepairEvent event) {
            seen.add("repair " + event.row());
        }
    }

    @Test
    void anEventReachesOnlyTheListenersThatOverrideItsMethod() {
        ListenerBus bus = new ListenerBus();
        try {
            assertThat(bus.wants(ListenerBus.Event.REPAIRS)).isFalse();
            RepairCounter repairs = new RepairCounter() {
            };
            bus.add(repairs);
            assertThat(bus.wants(ListenerBus.Event.REPAIRS)).isTrue();
            assertThat(bus.wants(ListenerBus.Event.STATUS)).isFalse();
            assertThat(bus.wants(ListenerBus.Event.TRANSACTION)).isFalse();

            List<String> statuses = new CopyOnWriteArrayList<>();
            bus.add(new EngineListener() {
                @Override
                public void onStatus(SpecStatus status) {
                    statuses.add(status.spec());
                }

                @Override
                public void onRepairs(List<RepairEvent> events) {
                    statuses.add("batch of " + events.size());
                }
            });
            assertThat(bus.wants(ListenerBus.Event.STATUS)).isTrue();

            RepairEvent event = new RepairEvent("o", "svc-tcp", "vips", Duration.ofMillis(1));
            bus.publish(ListenerBus.Event.TRANSACTION, l -> {
                throw new AssertionError("nobody listens to transactions");
            });
            // Queued behind it on the one listener thread, had it been queued.
            bus.publish(ListenerBus.Event.REPAIRS, l -> l.onRepairs(List.of(event)));
            Await.until(Duration.ofSeconds(10), "both listeners called", () -> repairs.seen.size() == 1 && statuses.size() == 1);
            assertThat(repairs.seen).containsExactly("repair svc-tcp");
            assertThat(statuses).containsExactly("batch of 1");
            assertThat(bus.failures()).isZero();
        } finally {
            bus.close(0);
        }
    }
}
