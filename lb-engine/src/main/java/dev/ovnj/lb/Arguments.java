package dev.ovnj.lb;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.List;
import java.util.Objects;

/**
 * The checks of the engine's list and varargs arguments, made at the call: a null there would
 * otherwise fail on the engine thread, after the caller already holds a future.
 */
final class Arguments {
    private Arguments() {
    }

    /** The specs, copied; throws naming the null list or the index of a null spec. */
    static List<LoadBalancerSpec> specs(String owner, List<LoadBalancerSpec> specs) {
        Objects.requireNonNull(specs, "specs");
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i) == null) {
                throw new NullPointerException("specs[" + i + "] of owner " + owner + " is null");
            }
        }
        return List.copyOf(specs);
    }

    /** The options as a list; throws naming a null array or a null option. */
    static List<ApplyOption> options(ApplyOption... options) {
        Objects.requireNonNull(options, "options");
        for (int i = 0; i < options.length; i++) {
            Objects.requireNonNull(options[i], "options[" + i + "]");
        }
        return List.of(options);
    }
}
