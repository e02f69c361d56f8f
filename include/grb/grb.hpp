// The one header a grb user includes.
#pragma once

#include "grb/array.hpp"
#include "grb/descriptor.hpp"
#include "grb/error.hpp"
#include "grb/generate.hpp"
#include "grb/io.hpp"
#include "grb/loop.hpp"
#include "grb/matrix.hpp"
#include "grb/operations.hpp"
#include "grb/operators.hpp"
#include "grb/scalar.hpp"
#include "grb/types.hpp"
#include "grb/vector.hpp"
