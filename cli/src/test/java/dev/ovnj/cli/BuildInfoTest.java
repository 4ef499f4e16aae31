package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.model.OvnNorthboundModel;
import org.junit.jupiter.api.Test;

/** What {@code ovnj version} says it was built against is what the typed model was generated from. */
class BuildInfoTest {
    @Test
    void schemaVersionIsTheGeneratedModels() {
        BuildInfo info = BuildInfo.read();
        assertThat(info.schemaName()).isEqualTo(OvnNorthboundModel.MODEL.name());
        assertThat(info.schemaVersion()).isEqualTo(OvnNorthboundModel.MODEL.version());
        assertThat(info.lines()[1]).isEqualTo("built against OVN 26.03, OVN_Northbound schema " + OvnNorthboundModel.MODEL.version());
    }
}
