export interface Engine {
  name: string;
}
