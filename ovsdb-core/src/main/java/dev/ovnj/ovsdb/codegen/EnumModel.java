package dev.ovnj.ovsdb.codegen;

import dev.ovnj.ovsdb.schema.AtomicType;
import dev.ovnj.ovsdb.schema.BaseType;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Java enum generated for an enum-constrained string base type.
 *
 * @param javaName the simple name of the nested enum
 * @param constants wire strings by constant name, in schema order
 */
record EnumModel(String javaName, Map<String, String> constants) {

    /**
     * Freezes the constants.
     *
     * @param javaName the enum name
     * @param constants the constants
     */
    EnumModel {
        constants = Collections.unmodifiableMap(new LinkedHashMap<>(constants));
    }

    /**
     * Returns the enum for a base type, if it is a string type with an enum constraint; other
     * enum-constrained types keep their plain Java type.
     *
     * @param base the base type
     * @param javaName the name to give the enum
     * @return the enum model, or empty
     */
    static Optional<EnumModel> of(BaseType base, String javaName) {
        if (base.type() != AtomicType.STRING || base.enumValues().isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> constants = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (Object wire : base.enumValues().get()) {
            String name = JavaNames.enumConstantName((String) wire);
            // Distinct strings such as "a-b" and "a_b" may map to one name; number the later ones.
            String unique = name;
            for (int n = 2; !taken.add(unique); n++) {
                unique = name + "_" + n;
            }
            constants.put(unique, (String) wire);
        }
        return Optional.of(new EnumModel(javaName, constants));
    }
}
