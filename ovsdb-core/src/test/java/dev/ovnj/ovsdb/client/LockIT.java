package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class LockIT {

    /** Records lock callbacks as "locked:id" / "stolen:id". */
    static final class Log implements LockListener {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void locked(String lockId) {
            calls.add("locked:" + lockId);
        }

        @Override
        public void stolen(String lockId) {
            calls.add("stolen:" + lockId);
        }
    }

    @Test
    void lockWaitStealAndRelease() {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbClient a = Clients.connect(server.remote());
             OvsdbClient b = Clients.connect(server.remote())) {
            Log la = new Log();
            Log lb = new Log();
            a.addLockListener(la);
            b.addLockListener(lb);
            assertThat(a.lock("ovnj_engine").join()).isTrue();
            assertThat(b.lock("ovnj_engine").join()).as("second client waits").isFalse();

            assertThat(b.steal("ovnj_engine").join()).isTrue();
            Await.until(WAIT, "stolen notification", () -> la.calls.contains("stolen:ovnj_engine"));

            b.unlock("ovnj_engine").join();
            // After a steal the old holder asks again, as an engine replica does.
            assertThat(a.lock("ovnj_engine").join()).isTrue();
            assertThat(lb.calls).doesNotContain("stolen:ovnj_engine");
        }
    }

    @Test
    void waitingClientIsNotifiedWhenTheHolderReleases() {
        try (OvsdbServer server = OvsdbServer.start();
             OvsdbClient a = Clients.connect(server.remote());
             OvsdbClient b = Clients.connect(server.remote())) {
            Log lb = new Log();
            b.addLockListener(lb);
            assertThat(a.lock("leader").join()).isTrue();
            assertThat(b.lock("leader").join()).isFalse();
            // A bad argument is refused at the call, as everywhere in the API.
            assertThatThrownBy(() -> a.lock("not-an-id")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lock name \"not-an-id\" is not an <id>");
            a.close();
            Await.until(WAIT, "locked notification after the holder went away", () -> lb.calls.contains("locked:leader"));
        }
    }
}
