package dev.ovnj.nb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.model.LoadBalancer;
import dev.ovnj.nb.model.LogicalRouter;
import dev.ovnj.nb.model.OvnNorthboundModel;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.Subscription;
import dev.ovnj.ovsdb.typed.TypedCache;
import dev.ovnj.ovsdb.typed.TypedEvent;
import dev.ovnj.ovsdb.typed.TypedIndex;
import dev.ovnj.ovsdb.typed.TypedTable;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Typed reads, index lookups and events of the cache, with the database changed by ovn-nbctl. */
class TypedCacheIT {

    private OvsdbServer server;
    private OvsdbClient client;
    private Nbctl nbctl;
    private TypedCache cache;

    @BeforeEach
    void start() {
        server = OvsdbServer.builder().schema(Northbound.MODEL_SCHEMA).start();
        nbctl = Nbctl.of(server);
        client = Northbound.connect(server.remote(), Compatibility.STRICT);
        cache = TypedCache.of(client.cache(), OvnNorthboundModel.MODEL);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void indexesFindRowsByNameAndByExternalIdsKey() {
        TypedTable<LoadBalancer> lbs = cache.table(LoadBalancer.class);
        TypedIndex<LoadBalancer, String> byName = lbs.index(LoadBalancer.NAME, true);
        TypedIndex<LoadBalancer, String> byOwner = lbs.index(LoadBalancer.EXTERNAL_IDS, "owner");
        nbctl.run("lb-add", "web", "10.0.0.10:80", "10.0.0.2:80", "--", "set", "Load_Balancer", "web", "external_ids:owner=team-a");
        nbctl.run("lb-add", "api", "10.0.0.11:80", "10.0.0.3:80", "--", "set", "Load_Balancer", "api", "external_ids:owner=team-a");
        nbctl.run("lb-add", "db", "10.0.0.12:5432", "10.0.0.4:5432", "--", "set", "Load_Balancer", "db", "external_ids:owner=team-b");
        Await.until(Northbound.WAIT, "three load balancers cached", () -> lbs.size() == 3);

        assertThat(byName.getOne("api").orElseThrow().vips()).containsEntry("10.0.0.11:80", "10.0.0.3:80");
        assertThat(byName.getOne("none")).isEmpty();
        assertThat(byOwner.get("team-a")).extracting(LoadBalancer::name).containsExactlyInAnyOrder("web", "api");
        assertThat(byOwner.get("team-b")).extracting(LoadBalancer::name).containsExactly("db");

        nbctl.run("set", "Load_Balancer", "api", "external_ids:owner=team-b");
        Await.until(Northbound.WAIT, "api moved to team-b", () -> byOwner.get("team-b").size() == 2);
        assertThat(byOwner.get("team-a")).extracting(LoadBalancer::name).containsExactly("web");
    }

    @Test
    void setIndexFindsRoutersByAttachedLoadBalancer() {
        TypedIndex<LogicalRouter, UUID> byLb = cache.table(LogicalRouter.class).index(LogicalRouter.LOAD_BALANCER);
        nbctl.run("lb-add", "web", "10.0.0.10:80", "10.0.0.2:80");
        nbctl.run("lr-add", "r1", "--", "lr-add", "r2", "--", "lr-add", "r3");
        nbctl.run("lr-lb-add", "r1", "web", "--", "lr-lb-add", "r3", "web");
        Await.until(Northbound.WAIT, "web attached", () -> cache.table(LoadBalancer.class).size() == 1
                && !byLb.get(cache.table(LoadBalancer.class).rows().get(0).uuid().orElseThrow()).isEmpty()
                && byLb.get(cache.table(LoadBalancer.class).rows().get(0).uuid().orElseThrow()).size() == 2);
        UUID web = cache.table(LoadBalancer.class).rows().get(0).uuid().orElseThrow();
        assertThat(byLb.get(web)).extracting(LogicalRouter::name).containsExactlyInAnyOrder("r1", "r3");
    }

    @Test
    void listenerReceivesTypedInsertUpdateAndDeleteOfItsTableOnly() {
        List<TypedEvent<LoadBalancer>> events = new CopyOnWriteArrayList<>();
        Subscription subscription = cache.table(LoadBalancer.class).addListener(events::addAll);

        nbctl.run("lr-add", "other-table");
        nbctl.run("lb-add", "web", "10.0.0.10:80", "10.0.0.2:80");
        nbctl.run("lb-add", "web", "10.0.0.10:443", "10.0.0.2:443");
        nbctl.run("lb-del", "web");
        Await.until(Northbound.WAIT, "three load balancer events", () -> events.size() == 3);

        assertThat(events.get(0)).isInstanceOfSatisfying(TypedEvent.Inserted.class, e ->
                assertThat(((LoadBalancer) e.row()).vips()).containsOnlyKeys("10.0.0.10:80"));
        assertThat(events.get(1)).isInstanceOfSatisfying(TypedEvent.Updated.class, e -> {
            assertThat(((LoadBalancer) e.oldRow()).vips()).containsOnlyKeys("10.0.0.10:80");
            assertThat(((LoadBalancer) e.newRow()).vips()).containsOnlyKeys("10.0.0.10:80", "10.0.0.10:443");
        });
        assertThat(events.get(2)).isInstanceOfSatisfying(TypedEvent.Deleted.class, e ->
                assertThat(((LoadBalancer) e.oldRow()).name()).isEqualTo("web"));
        assertThat(events).extracting(TypedEvent::uuid).containsOnly(events.get(0).uuid());

        subscription.close();
        nbctl.run("lb-add", "after", "10.0.0.20:80", "10.0.0.5:80");
        Await.until(Northbound.WAIT, "after cached", () -> cache.table(LoadBalancer.class).size() == 1);
        assertThat(events).hasSize(3);
    }
}
