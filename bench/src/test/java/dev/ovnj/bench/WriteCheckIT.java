package dev.ovnj.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import org.junit.jupiter.api.Test;

/** The harness refuses a bulk-create figure unless the database holds exactly what was claimed. */
class WriteCheckIT {
    @Test
    void acceptsExactlyTheClaimedRowsAttachedToRouterAndSwitch() {
        try (OvsdbServer server = Scenarios.seededServer()) {
            Nbctl nb = Nbctl.of(server);
            for (int i = 0; i < 3; i++) {
                nb.run("lb-add", "lb-" + i, "172.16.0." + (i + 1) + ":80", "10.0.0." + (i + 1) + ":8080", "tcp",
                        "--", "lr-lb-add", Scenarios.ROUTER, "lb-" + i, "--", "ls-lb-add", Scenarios.SWITCH, "lb-" + i);
            }
            assertThatCode(() -> WriteCheck.bulkCreate("good", server.remote(), 3)).doesNotThrowAnyException();
            assertThatThrownBy(() -> WriteCheck.bulkCreate("short", server.remote(), 4))
                    .hasMessageContaining("short did not write what it claims: the database has 3 load balancers, expected 4");

            // A row written but not attached to the switch is caught.
            nb.run("lb-add", "lb-3", "172.16.0.9:80", "10.0.0.9:8080", "tcp", "--", "lr-lb-add", Scenarios.ROUTER, "lb-3");
            assertThatThrownBy(() -> WriteCheck.bulkCreate("half", server.remote(), 4))
                    .hasMessageContaining("Logical_Switch " + Scenarios.SWITCH + " has 3 load balancers attached, expected exactly the 4");
        }
    }
}
