package dev.ovnj.kubernetes;

import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.SpecException;
import io.fabric8.kubernetes.api.model.Service;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Service's client networks ({@code spec.loadBalancerSourceRanges}, or the legacy annotation
 * when the field is empty, as kube-proxy reads them) for the engine's {@code sourceRanges}, and the
 * condition of a Service whose ranges OVN cannot hold, naming the Service's own field.
 */
final class SourceRanges {
    /** The annotation that preceded the field; kube-proxy still honours it when the field is empty. */
    static final String ANNOTATION = "service.beta.kubernetes.io/load-balancer-source-ranges";
    /** The condition's reason when the ranges cannot be enforced. */
    static final String UNSUPPORTED = ConditionReasons.SOURCE_RANGES_UNSUPPORTED;
    private static final String FIELD = "spec.loadBalancerSourceRanges";
    private static final String ENGINE_FIELD = "sourceRanges";

    private SourceRanges() {
    }

    /** The Service's ranges, trimmed; empty when it restricts nothing. */
    static List<String> of(Service service) {
        List<String> field = service.getSpec().getLoadBalancerSourceRanges();
        if (field != null && !field.isEmpty()) {
            return field.stream().map(String::trim).toList();
        }
        return Arrays.stream(annotation(service).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * The condition for a spec the Service could not become: {@value #UNSUPPORTED} naming the
     * Service's field when its ranges are the problem, else the spec's own problems.
     */
    static LoadBalancerCondition refusal(Service service, IllegalArgumentException e, String otherwise) {
        if (!(e instanceof SpecException spec)) {
            return LoadBalancerCondition.failed(otherwise, e.getMessage());
        }
        List<SpecError> ranges = spec.errors().stream().filter(err -> err.field().startsWith(ENGINE_FIELD)).toList();
        if (ranges.isEmpty()) {
            return LoadBalancerCondition.failed(otherwise, e.getMessage());
        }
        String field = hasField(service) ? FIELD : "metadata.annotations[" + ANNOTATION + "]";
        return LoadBalancerCondition.failed(UNSUPPORTED, ranges.stream()
                .map(err -> field + err.field().substring(ENGINE_FIELD.length()) + ": " + err.message())
                .collect(Collectors.joining("; ")) + "; the load balancer is left as it was");
    }

    private static boolean hasField(Service service) {
        List<String> field = service.getSpec().getLoadBalancerSourceRanges();
        return field != null && !field.isEmpty();
    }

    private static String annotation(Service service) {
        Map<String, String> annotations = service.getMetadata().getAnnotations();
        return annotations == null ? "" : annotations.getOrDefault(ANNOTATION, "");
    }
}
