package dev.ovnj.cli;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.SpecValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The contents of a desired-state file: an owner and the complete set of its load balancers.
 *
 * @param source the file name, for messages
 * @param owner the owner the file names, if it names one
 * @param declared the load balancers in file order
 */
record DesiredState(String source, Optional<String> owner, List<DeclaredSpec> declared) {

    /** Copies the list. */
    DesiredState {
        declared = List.copyOf(declared);
    }

    /**
     * The owner to write as: {@code override} when given (the {@code --owner} option), else the
     * file's.
     *
     * @param override the command line's owner, or null
     * @return the owner
     * @throws DesiredStateException when neither names one
     */
    String ownerOr(String override) {
        if (override != null) {
            return override;
        }
        return owner.orElseThrow(() -> new DesiredStateException(source + ": no owner: set \"owner\" in the file or pass --owner"));
    }

    /** The specs in file order. */
    List<LoadBalancerSpec> specs() {
        return declared.stream().map(DeclaredSpec::spec).toList();
    }

    /**
     * Runs the engine's validation and places each problem in the file.
     *
     * @param owner the owner the specs are checked for
     * @return one line per problem, {@code file:line: owner O, spec S, field: message}; empty when all are valid
     */
    List<SpecProblem> problems(String owner) {
        Map<String, List<SpecError>> checked = SpecValidator.validate(owner, specs());
        List<SpecProblem> out = new ArrayList<>();
        List<String> reported = new ArrayList<>();
        for (DeclaredSpec d : declared) {
            String name = d.spec().name();
            if (reported.contains(name)) {
                continue;
            }
            reported.add(name);
            for (SpecError e : checked.getOrDefault(name, List.of())) {
                DeclaredSpec where = e.field().equals("name") ? lastNamed(name) : d;
                out.add(new SpecProblem(name, source + ":" + where.lineOf(e.field()) + ": " + e));
            }
        }
        return out;
    }

    private DeclaredSpec lastNamed(String name) {
        DeclaredSpec last = null;
        for (DeclaredSpec d : declared) {
            if (d.spec().name().equals(name)) {
                last = d;
            }
        }
        return last;
    }

    /**
     * One validation problem of a spec.
     *
     * @param spec the spec's name
     * @param message the line to print
     */
    record SpecProblem(String spec, String message) {
    }
}
