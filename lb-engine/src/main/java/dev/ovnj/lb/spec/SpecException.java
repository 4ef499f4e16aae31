package dev.ovnj.lb.spec;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A spec with values that cannot work: {@link LoadBalancerSpec.Builder#build()} throws it for
 * problems it can see without a database (a VIP that is not {@code IP:PORT}, a port outside
 * 1..65535, an option out of range): a misuse at the call, hence an
 * {@link IllegalArgumentException}. The engine fails a request's future with its
 * {@code InvalidSpecException} (an {@code EngineException}) for the same problems and those it
 * finds against the database; each problem names its field, with the same text either way.
 */
public class SpecException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final transient List<SpecError> errors;

    /**
     * Creates the exception; its message joins every problem.
     *
     * @param errors every problem found, at least one
     */
    public SpecException(List<SpecError> errors) {
        super(errors.stream().map(SpecError::toString).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    /**
     * Every problem found, each naming spec and field (and owner, when checked for one).
     *
     * @return every problem found
     */
    public List<SpecError> errors() {
        return errors;
    }
}
