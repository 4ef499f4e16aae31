package dev.ovnj.lb;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import java.util.List;

/**
 * One desired version of a spec: what its owner declared, or that its rows must go.
 *
 * @param spec the spec, or null when its rows are to be deleted
 * @param errors validation errors; non-empty means INVALID and nothing is written
 * @param generation the version, growing with every declaration of this spec
 * @param seq the engine-wide order of the first declaration, deciding which of two owners claimed a VIP first
 * @param facts what the engine derives from a valid spec, once per declaration; null when removed or invalid
 * @param held when its rows are to go but their deletion is held (the deletion budget, or an owner
 *     whose desired set is not complete yet): why, for its status; null otherwise
 * @param adoption the foreign rows this declaration may take over, null for none (the default)
 */
record Desired(LoadBalancerSpec spec, List<SpecError> errors, long generation, long seq, SpecFacts facts, String held,
               Adoption adoption) {

    Desired {
        errors = List.copyOf(errors);
    }

    Desired(LoadBalancerSpec spec, List<SpecError> errors, long generation, long seq, SpecFacts facts) {
        this(spec, errors, generation, seq, facts, null, null);
    }

    /** Whether its rows stay although no spec names them. */
    boolean isHeld() {
        return held != null;
    }

    boolean removed() {
        return spec == null;
    }

    boolean invalid() {
        return !errors.isEmpty();
    }
}
