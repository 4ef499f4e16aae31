package dev.ovnj.cli;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The specs of a desired state as the engine gets them, and the validation problems located in
 * the file. Invalid specs are handed over too: the engine writes nothing for them and leaves what
 * the database holds for them as it is, so a typo in a new version never deletes a working load
 * balancer.
 *
 * @param specs the specs to apply or plan, each name once
 * @param problems one line per validation problem, naming file, line, owner, spec and field
 * @param invalid names of the invalid specs
 */
record EffectiveSpecs(List<LoadBalancerSpec> specs, List<String> problems, Set<String> invalid) {

    /** Copies the collections. */
    EffectiveSpecs {
        specs = List.copyOf(specs);
        problems = List.copyOf(problems);
        invalid = Set.copyOf(invalid);
    }

    /**
     * Resolves a desired state for one owner.
     *
     * @param state the file's contents
     * @param owner the owner
     * @return the specs and problems
     */
    static EffectiveSpecs of(DesiredState state, String owner) {
        List<DesiredState.SpecProblem> problems = state.problems(owner);
        Set<String> invalid = new LinkedHashSet<>();
        problems.forEach(p -> invalid.add(p.spec()));
        List<LoadBalancerSpec> specs = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (LoadBalancerSpec spec : state.specs()) {
            if (seen.add(spec.name())) {
                specs.add(spec);
            }
        }
        return new EffectiveSpecs(specs, problems.stream().map(DesiredState.SpecProblem::message).toList(), invalid);
    }
}
