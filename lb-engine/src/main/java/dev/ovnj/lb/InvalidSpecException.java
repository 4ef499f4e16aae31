package dev.ovnj.lb;

import dev.ovnj.lb.spec.SpecError;
import dev.ovnj.lb.spec.SpecException;
import java.util.List;

/**
 * An {@code upsert} or {@code apply} was refused because a spec is invalid; nothing was written for
 * it. Its {@link #errors()} name owner, spec and field.
 */
public final class InvalidSpecException extends SpecException {
    private static final long serialVersionUID = 1L;

    InvalidSpecException(List<SpecError> errors) {
        super(errors);
    }
}
