// er_cp: copy experiments and experiment groups (seed-spec §11; rules in expfiles/utilities.h).
#include "expfiles/utilities.h"

int main(int argc, char** argv) {
  return erkit::expfiles::run_transfer(erkit::expfiles::TransferMode::Copy, {argv + 1, argv + argc}, stdout, stderr);
}
