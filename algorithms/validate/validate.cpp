// Validator implementations (to be written).
#include "validate/validate.hpp"
