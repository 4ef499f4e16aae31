package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OvnFeaturesTest {
    @Test
    void releasesCompareByMajorThenMinorAsNumbers() {
        assertThat(OvnFeatures.compare("23.03", "21.12")).isPositive();
        assertThat(OvnFeatures.compare("21.12", "21.12")).isZero();
        assertThat(OvnFeatures.compare("21.9", "21.12")).as("minor 9 < 12 numerically").isNegative();
        assertThat(OvnFeatures.compare("9.12", "21.03")).isNegative();
        assertThat(OvnFeatures.compare("100.01", "99.99")).isPositive();
    }

    @Test
    void aGroupNeedsTwentyOneTwelve() {
        LoadBalancerSpec spec = LoadBalancerSpec.builder("web").routers("r").tcp("10.0.0.1:80", "10.1.0.1:8080").group("g").build();
        assertThat(OvnFeatures.missing(spec, Optional.of(new String[] {"21.09", "test"})))
                .singleElement().asString().contains("needs OVN 21.12");
        assertThat(OvnFeatures.missing(spec, Optional.of(new String[] {"21.12", "test"}))).isEmpty();
    }
}
