package dev.ovnj.sb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.TypedCache;
import dev.ovnj.ovsdb.typed.TypedTable;
import dev.ovnj.sb.model.DatapathBinding;
import dev.ovnj.sb.model.LoadBalancer;
import dev.ovnj.sb.model.LogicalDpGroup;
import dev.ovnj.sb.model.OvnSouthboundModel;
import dev.ovnj.sb.model.PortBinding;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.OvnCentral;
import dev.ovnj.testkit.OvnRelease;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The typed Southbound model (OVN 26.03's schema) against what the real ovn-northd of the release
 * under test writes: with the strict schema check on the model's own release, leniently on older
 * ones, whose missing columns read as their defaults.
 */
class SouthboundModelIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void readsWhatNorthdWrites() {
        try (OvnCentral ovn = OvnCentral.start()) {
            ovn.nbctl().run("ls-add", "sw0", "--", "lsp-add", "sw0", "p1", "--", "lsp-set-addresses", "p1", "00:00:00:00:00:01 10.0.0.2",
                    "--", "lb-add", "web", "10.0.0.10:80", "10.0.0.2:80", "tcp", "--", "ls-lb-add", "sw0", "web");
            ovn.sync();
            boolean modelsRelease = OvnRelease.current().ovnAtLeast(26, 3);
            try (OvsdbClient client = OvsdbClient.builder().remotes(ovn.southbound().remote()).database("OVN_Southbound")
                    .model(OvnSouthboundModel.MODEL, modelsRelease ? Compatibility.STRICT : Compatibility.LENIENT).build()
                    .startAndWait(WAIT)) {
                if (!modelsRelease) {
                    assertThat(client.compatibility().orElseThrow().unusableColumns()).contains("Service_Monitor.type");
                }
                TypedCache cache = TypedCache.of(client.cache(), OvnSouthboundModel.MODEL);
                TypedTable<LoadBalancer> lbs = cache.table(LoadBalancer.class);
                Await.until(WAIT, "the SB load balancer", () -> lbs.size() == 1);
                LoadBalancer lb = lbs.rows().get(0);
                assertThat(lb.name()).isEqualTo("web");
                assertThat(lb.vips()).containsEntry("10.0.0.10:80", "10.0.0.2:80");
                assertThat(lb.protocol()).contains(LoadBalancer.Protocol.TCP);
                // Switches are in ls_datapath_group from OVN 25.03 on, in datapath_group before.
                UUID group = lb.lsDatapathGroup().or(lb::datapathGroup).orElseThrow();
                UUID datapath = cache.table(LogicalDpGroup.class).rows().stream()
                        .filter(g -> g.uuid().orElseThrow().equals(group)).findFirst().orElseThrow().datapaths().iterator().next();
                DatapathBinding dp = cache.table(DatapathBinding.class).rows().stream()
                        .filter(d -> d.uuid().orElseThrow().equals(datapath)).findFirst().orElseThrow();
                assertThat(dp.externalIds()).containsEntry("name", "sw0");
                PortBinding p1 = cache.table(PortBinding.class).rows().stream()
                        .filter(p -> p.logicalPort().equals("p1")).findFirst().orElseThrow();
                assertThat(p1.mac()).containsExactly("00:00:00:00:00:01 10.0.0.2");
                assertThat(p1.chassis()).isEmpty();
            }
        }
    }
}
