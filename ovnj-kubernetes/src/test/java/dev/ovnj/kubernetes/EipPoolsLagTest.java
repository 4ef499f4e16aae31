package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A pool the API server has and the informer has not shown yet: the Service it would serve waits
 * for it rather than taking the command line's port for good; any other pool does not hold it up.
 */
class EipPoolsLagTest {
    private static final Service WEB = new ServiceBuilder().withNewMetadata().withNamespace("project-a").withName("web")
            .endMetadata().build();

    @Test
    void anAutoAssigningPoolOfTheServicesNamespaceThatTheInformerLacksIsNamed() {
        assertThat(EipPools.notSeenYet(WEB, Map.of(), List.of(pool("b", List.of("project-a"), null), pool("a", List.of(), true))))
                .contains("a");
    }

    @Test
    void aPoolOfOtherNamespacesOneNotAssigningAutomaticallyOrOneAlreadySeenHoldsNothingUp() {
        assertThat(EipPools.notSeenYet(WEB, Map.of(), List.of(pool("other", List.of("project-b"), true),
                pool("manual", List.of("project-a"), false)))).isEmpty();
        EipPools.State seen = new EipPools.State("a", pool("a", List.of(), true), List.of(), Optional.empty(),
                Optional.empty(), Optional.empty());
        assertThat(EipPools.notSeenYet(WEB, Map.of("a", seen), List.of(pool("a", List.of(), true)))).isEmpty();
    }

    private static EipPool pool(String name, List<String> namespaces, Boolean autoAssign) {
        EipPool p = new EipPool();
        p.setMetadata(new ObjectMetaBuilder().withName(name).build());
        p.setSpec(new EipPool.Spec("r-a", "r-a-ext", "s-a", null, new ArrayList<>(), new ArrayList<>(namespaces), autoAssign));
        return p;
    }
}
