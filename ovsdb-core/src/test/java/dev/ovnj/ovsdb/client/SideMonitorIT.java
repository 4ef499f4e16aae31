package dev.ovnj.ovsdb.client;

import static dev.ovnj.ovsdb.client.Clients.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.RowUpdate;
import dev.ovnj.ovsdb.monitor.UpdateBatch;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SideMonitorIT {

    @Test
    void sideMonitorDeliversUpdatesUntilMonitorCancel() throws Exception {
        try (OvsdbServer server = OvsdbServer.start(); OvsdbClient client = Clients.connect(server.remote())) {
            Nbctl nbctl = Nbctl.of(server);
            nbctl.run("ls-add", "before");
            List<UpdateBatch> batches = new CopyOnWriteArrayList<>();
            SideMonitor side = client.monitor(MonitorRequest.tables("Logical_Switch"), batches::add).get(20, TimeUnit.SECONDS);
            assertThat(batches).singleElement().satisfies(b -> assertThat(b.updates()).singleElement()
                    .extracting(RowUpdate::kind).isEqualTo(RowUpdate.Kind.INITIAL));

            nbctl.run("ls-add", "during");
            Await.until(WAIT, "insert seen by the side monitor", () -> batches.size() == 2);
            assertThat(batches.get(1).updates()).singleElement().extracting(RowUpdate::kind).isEqualTo(RowUpdate.Kind.INSERT);

            side.cancel().get(20, TimeUnit.SECONDS);
            assertThat(side.ended()).isDone();
            nbctl.run("ls-add", "after");
            Clients.awaitRow(client, "Logical_Switch", "after");   // the cache's own monitor still runs
            // The cache saw "after"; a live side monitor would have received it before or with it.
            client.transactAndWait(client.transaction().add(dev.ovnj.ovsdb.tx.Operations.comment("barrier")).build(), WAIT);
            assertThat(batches).hasSize(2);
        }
    }

    @Test
    void sideMonitorOutlivesItsConnectionAndEndsWithTheClient() throws Exception {
        try (OvsdbServer server = OvsdbServer.start()) {
            OvsdbClient client = Clients.connect(server.remote());
            SideMonitor side = client.monitor(MonitorRequest.tables("Logical_Router"), b -> { }).get(20, TimeUnit.SECONDS);
            server.kill();
            Await.until(WAIT, "disconnect noticed", () -> !client.isSynced());
            assertThat(side.ended()).isNotDone();
            client.close();
            side.ended().get(20, TimeUnit.SECONDS);
            assertThat(side.cancel()).isDone();
        }
    }
}
